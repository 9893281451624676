/*
 * test_cpu_affinity.c - pinning, masks, the current CPU, the thread id and the capability probes,
 * checked against what the kernel itself reports in /proc/self/task/<tid>/status.
 * Pinning happens on a pthread of its own, so the test process's main thread keeps its mask.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "affinity_internal.h"
#include "check.h"

#define WORDS 16u

static uint64_t allowed[WORDS];

/* The kernel's own view: Cpus_allowed_list of the calling thread. */
static void kernel_mask(uint64_t *words) {
    int64_t tid = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_thread_id(&tid));
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/self/task/%lld/status", (long long)tid);
    FILE *status = fopen(path, "r");
    CHECK(status != NULL);
    memset(words, 0, WORDS * sizeof(uint64_t));
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            CHECK_EQ(LANEHOST_AFFINITY_OK, affinity_parse_cpu_list(line + 18 + strspn(line + 18, " \t"), words, WORDS));
        }
    }
    if (status != NULL) fclose(status);
}

/* Says why a test does not run here; the test then returns without checking anything. */
static void skip(const char *reason) {
    printf("     skipped: %s\n", reason);
}

static uint32_t allowed_count(void) {
    uint32_t count = 0;
    for (uint32_t w = 0; w < WORDS; w++) count += (uint32_t)__builtin_popcountll(allowed[w]);
    return count;
}

static int32_t first_cpu_not_allowed(void) {
    for (int32_t cpu = 0; cpu < (int32_t)(WORDS * 64u); cpu++) {
        if (!((allowed[cpu / 64] >> (cpu % 64)) & 1u)) return cpu;
    }
    return -1;
}

static void allowedCpusMatchTheKernelsList(void) {
    uint32_t needed = 0;
    uint64_t kernel[WORDS];
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_allowed_cpus(allowed, WORDS, &needed));
    CHECK(needed >= 1);
    kernel_mask(kernel); /* the main thread, unpinned: the process's set */
    for (uint32_t w = 0; w < WORDS; w++) CHECK_EQ(kernel[w], allowed[w]);
}

static void shortBuffersSayHowLongTheyMustBe(void) {
    uint64_t words[1];
    uint32_t needed = 0;
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_allowed_cpus(words, 0, &needed));
    CHECK(needed >= 1);
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_thread_mask(words, 0, &needed));
    CHECK(needed >= 1);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_allowed_cpus(NULL, 1, &needed));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_thread_mask(words, 1, NULL));
}

static void *pin_each_allowed_cpu(void *unused) {
    (void)unused;
    for (int32_t cpu = 0; cpu < (int32_t)(WORDS * 64u); cpu++) {
        if (!((allowed[cpu / 64] >> (cpu % 64)) & 1u)) continue;
        uint64_t one[WORDS] = {0}, mask[WORDS], kernel[WORDS];
        one[cpu / 64] = UINT64_C(1) << (cpu % 64);
        int32_t refused = 99;
        CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_pin_thread(one, WORDS, &refused));
        CHECK_EQ(-1, refused);
        uint32_t needed = 0;
        CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_thread_mask(mask, WORDS, &needed));
        CHECK_EQ((uint32_t)cpu / 64u + 1u, needed);
        kernel_mask(kernel);
        for (uint32_t w = 0; w < WORDS; w++) {
            CHECK_EQ(one[w], mask[w]);
            CHECK_EQ(one[w], kernel[w]);
        }
        int32_t on = -1, node = -1;
        CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_cpu(&on, &node));
        CHECK_EQ(cpu, on);
        CHECK(node >= 0);
    }
    return NULL;
}

static void pinningToEachAllowedCpuReadsBackFromProc(void) {
    if (allowed_count() < 2) {
        skip("needs at least 2 allowed CPUs: pinned to the only one, a thread reads back the same mask whether or not pinning works");
        return;
    }
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, pin_each_allowed_cpu, NULL));
    CHECK_EQ(0, pthread_join(thread, NULL));
}

static void *pin_outside(void *unused) {
    (void)unused;
    uint64_t before[WORDS], after[WORDS], request[WORDS] = {0};
    uint32_t needed;
    int32_t outside = first_cpu_not_allowed();
    int32_t inside = affinity_first_cpu(allowed, WORDS);
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_thread_mask(before, WORDS, &needed));

    /* Alone, and next to an allowed CPU (the case the kernel would silently trim). */
    request[outside / 64] |= UINT64_C(1) << (outside % 64);
    int32_t refused = -1;
    CHECK_EQ(LANEHOST_AFFINITY_CPU_NOT_ALLOWED, lanehost_affinity_pin_thread(request, WORDS, &refused));
    CHECK_EQ(outside, refused);
    request[inside / 64] |= UINT64_C(1) << (inside % 64);
    refused = -1;
    CHECK_EQ(LANEHOST_AFFINITY_CPU_NOT_ALLOWED, lanehost_affinity_pin_thread(request, WORDS, &refused));
    CHECK_EQ(outside, refused);
    CHECK_EQ(LANEHOST_AFFINITY_CPU_NOT_ALLOWED, lanehost_affinity_pin_thread(request, WORDS, NULL));

    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_thread_mask(after, WORDS, &needed));
    for (uint32_t w = 0; w < WORDS; w++) CHECK_EQ(before[w], after[w]);
    return NULL;
}

static void pinningOutsideTheAllowedSetIsRefusedAndChangesNothing(void) {
    if (first_cpu_not_allowed() < 0) {
        skip("needs a CPU number below 1024 that this process may not use");
        return;
    }
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, pin_outside, NULL));
    CHECK_EQ(0, pthread_join(thread, NULL));
}

static void badMasksAreRefused(void) {
    uint64_t empty[2] = {0, 0};
    CHECK_EQ(LANEHOST_AFFINITY_EMPTY_SET, lanehost_affinity_pin_thread(empty, 2, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_pin_thread(NULL, 2, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_pin_thread(empty, 0, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_pin_thread(empty, AFFINITY_MAX_MASK_WORDS + 1, NULL));
}

static void threadIdOfTheMainThreadIsThePid(void) {
    int64_t tid = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_thread_id(&tid));
    CHECK_EQ(getpid(), tid);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_current_thread_id(NULL));
}

static void currentCpuIsAnAllowedOne(void) {
    int32_t cpu = -1;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_cpu(&cpu, NULL));
    CHECK((allowed[cpu / 64] >> (cpu % 64)) & 1u);
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_cpu(NULL, NULL));
}

static void probesAnswerForEveryCapability(void) {
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_HARD_AFFINITY));
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_CURRENT_CPU));
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_TOPOLOGY));
    /* A container may filter mbind: then the probe says why, with one of these. */
    int32_t numa = lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_NUMA_BINDING);
    CHECK(numa == LANEHOST_AFFINITY_OK || numa == LANEHOST_AFFINITY_UNSUPPORTED || numa == LANEHOST_AFFINITY_PERMISSION_DENIED);
    printf("     numa binding probe: %s\n", lanehost_affinity_status_text(numa));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_probe(0));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_probe(99));
}

int main(void) {
    RUN_TEST(allowedCpusMatchTheKernelsList);
    RUN_TEST(shortBuffersSayHowLongTheyMustBe);
    RUN_TEST(pinningToEachAllowedCpuReadsBackFromProc);
    RUN_TEST(pinningOutsideTheAllowedSetIsRefusedAndChangesNothing);
    RUN_TEST(badMasksAreRefused);
    RUN_TEST(threadIdOfTheMainThreadIsThePid);
    RUN_TEST(currentCpuIsAnAllowedOne);
    RUN_TEST(probesAnswerForEveryCapability);
    return CHECK_EXIT();
}
