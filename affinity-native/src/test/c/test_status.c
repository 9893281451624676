/* test_status.c - version, platform, status texts, errno bookkeeping and the constants report. */
#include <string.h>

#include "affinity_internal.h"
#include "check.h"

static void abiVersionIsTheHeaders(void) {
    CHECK_EQ(LANEHOST_AFFINITY_ABI_VERSION, lanehost_affinity_abi_version());
}

static void platformNamesOsAndArchitecture(void) {
    const char *platform = lanehost_affinity_platform();
    CHECK(platform != NULL);
#if defined(__linux__) && defined(__x86_64__)
    CHECK_EQ(0, strcmp("linux-x86_64", platform));
#elif defined(__linux__) && defined(__aarch64__)
    CHECK_EQ(0, strcmp("linux-aarch64", platform));
#endif
}

static void everyStatusHasItsOwnText(void) {
    const char *unknown = lanehost_affinity_status_text(12345);
    CHECK_EQ(0, strcmp("unknown lanehost affinity status", unknown));
    CHECK_EQ(0, strcmp("ok", lanehost_affinity_status_text(LANEHOST_AFFINITY_OK)));
    for (int32_t status = LANEHOST_AFFINITY_OUT_OF_RANGE; status < LANEHOST_AFFINITY_OK; status++) {
        const char *text = lanehost_affinity_status_text(status);
        CHECK(text != NULL && strcmp(text, unknown) != 0);
        for (int32_t other = status + 1; other <= LANEHOST_AFFINITY_OK; other++) {
            CHECK(strcmp(text, lanehost_affinity_status_text(other)) != 0);
        }
    }
}

static void lastErrnoIsClearedByTheNextCall(void) {
    int32_t node;
    CHECK_EQ(LANEHOST_AFFINITY_NOT_FOUND, affinity_status_from_errno(2 /* ENOENT */));
    CHECK_EQ(2, lanehost_affinity_last_errno());
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_memory_node(NULL, &node));
    CHECK_EQ(0, lanehost_affinity_last_errno());
}

static void constantsReportHasUniqueNamesAndFindsEach(void) {
    uint32_t count = 0;
    for (const char *name; (name = lanehost_affinity_constant_name(count)) != NULL; count++) {
        int32_t found = 0;
        lanehost_affinity_constant_value(name, &found);
        CHECK_EQ(1, found);
        for (uint32_t other = 0; other < count; other++) {
            CHECK(strcmp(name, lanehost_affinity_constant_name(other)) != 0);
        }
    }
    CHECK(count >= 30);
    int32_t found = 1;
    CHECK_EQ(LANEHOST_AFFINITY_CPU_NOT_ALLOWED, lanehost_affinity_constant_value("STATUS_CPU_NOT_ALLOWED", &found));
    CHECK_EQ(1, found);
    CHECK_EQ(28, lanehost_affinity_constant_value("CPU_RECORD_SIZE", &found));
    CHECK_EQ(0, lanehost_affinity_constant_value("NO_SUCH_CONSTANT", &found));
    CHECK_EQ(0, found);
    CHECK_EQ(0, lanehost_affinity_constant_value(NULL, &found));
    CHECK_EQ(0, found);
    CHECK_EQ(0, lanehost_affinity_constant_value("STATUS_OK", NULL)); /* a NULL out-pointer is allowed */
}

int main(void) {
    RUN_TEST(abiVersionIsTheHeaders);
    RUN_TEST(platformNamesOsAndArchitecture);
    RUN_TEST(everyStatusHasItsOwnText);
    RUN_TEST(lastErrnoIsClearedByTheNextCall);
    RUN_TEST(constantsReportHasUniqueNamesAndFindsEach);
    return CHECK_EXIT();
}
