/* test_cpu_list.c - the sysfs text helpers: the kernel's list syntax, ints, whole-file reads. */
#include <string.h>

#include "affinity_internal.h"
#include "check.h"

static uint64_t words[4];

static void kernelListSyntaxParses(void) {
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_cpu_list("0-3,8,10-11\n", words, 4));
    CHECK_EQ(0xD0F, words[0]);
    CHECK_EQ(0, words[1]);
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_cpu_list("64,255", words, 4));
    CHECK_EQ(1, words[1]);
    CHECK_EQ(UINT64_C(1) << 63, words[3]);
    CHECK_EQ(64, affinity_first_cpu(words, 4));
}

static void emptyListIsTheEmptySet(void) {
    words[0] = 7;
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_cpu_list("\n", words, 4));
    CHECK_EQ(0, words[0]);
    CHECK_EQ(-1, affinity_first_cpu(words, 4));
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_cpu_list("", words, 4));
}

static void malformedListsAreRefused(void) {
    const char *bad[] = {"3-1", "a", "1,,2", "1-", "-1", "1 2", "0-3,", "1:2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_cpu_list(bad[i], words, 4));
    }
}

static void cpuBeyondTheBufferIsBufferTooSmall(void) {
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, affinity_parse_cpu_list("0,256", words, 4));
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_cpu_list("99999999999", words, 4)); /* beyond int32 */
}

static void intsParseWithSurroundingWhitespace(void) {
    int32_t value = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_int(" 42\n", &value));
    CHECK_EQ(42, value);
    CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_int("-1", &value));
    CHECK_EQ(-1, value);
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_int("zero", &value));
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_int("4x", &value));
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_int("", &value));
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, affinity_parse_int("99999999999", &value));
}

static void readTextReportsMissingAndOversizedFiles(void) {
    char buffer[8];
    CHECK_EQ(LANEHOST_AFFINITY_NOT_FOUND, affinity_read_text(AFFINITY_FIXTURES "/no-such-file", buffer, sizeof buffer));
    CHECK_EQ(2 /* ENOENT */, lanehost_affinity_last_errno());
    CHECK_EQ(LANEHOST_AFFINITY_OK,
             affinity_read_text(AFFINITY_FIXTURES "/two-sockets/devices/system/cpu/present", buffer, sizeof buffer));
    CHECK_EQ(0, strcmp("0-15\n", buffer));
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED,
             affinity_read_text(AFFINITY_FIXTURES "/two-sockets/devices/system/node/node1/cpulist", buffer, 4));
}

int main(void) {
    RUN_TEST(kernelListSyntaxParses);
    RUN_TEST(emptyListIsTheEmptySet);
    RUN_TEST(malformedListsAreRefused);
    RUN_TEST(cpuBeyondTheBufferIsBufferTooSmall);
    RUN_TEST(intsParseWithSurroundingWhitespace);
    RUN_TEST(readTextReportsMissingAndOversizedFiles);
    return CHECK_EXIT();
}
