/*
 * test_thread_priority.c - real-time class, nice and their read-back, each on a thread of its own so the
 * test's main thread keeps SCHED_OTHER at nice 0. The kernel's view comes from /proc/thread-self/stat,
 * independently of the library's own read-back.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "affinity_internal.h"
#include "check.h"

/* The scheduling fields of /proc/thread-self/stat (proc(5)): nice is field 19, rt_priority 40, policy 41. */
typedef struct stat_fields {
    long nice;
    long rt_priority;
    long policy;
} stat_fields;

static int read_stat(stat_fields *fields) {
    char text[4096];
    FILE *file = fopen("/proc/thread-self/stat", "r");
    if (file == NULL) return 0;
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    char *cursor = strrchr(text, ')'); /* the command name may hold spaces and parentheses */
    if (cursor == NULL) return 0;
    cursor += 2;
    for (int field = 3; field <= 41 && cursor != NULL; field++) {
        long value = strtol(cursor, NULL, 10);
        if (field == 19) fields->nice = value;
        if (field == 40) fields->rt_priority = value;
        if (field == 41) fields->policy = value;
        cursor = strchr(cursor, ' ');
        if (cursor != NULL) cursor++;
    }
    return fields->policy >= 0;
}

static void *run_test(void *test) {
    ((void (*)(void))test)();
    return NULL;
}

/* Runs a test on a fresh thread that ends with it: whatever it sets dies with the thread. */
static void on_fresh_thread(void (*test)(void)) {
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, run_test, (void *)test));
    CHECK_EQ(0, pthread_join(thread, NULL));
}

static void fifoTen(void) {
    int32_t status = lanehost_affinity_set_realtime(LANEHOST_AFFINITY_SCHED_FIFO, 10);
    if (status == LANEHOST_AFFINITY_PERMISSION_DENIED) {
        printf("skipped: SCHED_FIFO needs CAP_SYS_NICE or RLIMIT_RTPRIO >= 10 (errno %d)\n", lanehost_affinity_last_errno());
        return;
    }
    CHECK_EQ(LANEHOST_AFFINITY_OK, status);
    stat_fields kernel = {-99, -1, -1};
    CHECK(read_stat(&kernel));
    CHECK_EQ(LANEHOST_AFFINITY_SCHED_FIFO, kernel.policy);
    CHECK_EQ(10, kernel.rt_priority);
    int32_t sched_class = -1, priority = -1, nice = -99;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_thread_priority(&sched_class, &priority, &nice));
    CHECK_EQ(LANEHOST_AFFINITY_SCHED_FIFO, sched_class); /* RESET_ON_FORK masked off */
    CHECK_EQ(10, priority);
    CHECK_EQ(kernel.nice, nice);
}

static void realtimeFifoTenReadsBackFromProcStat(void) {
    on_fresh_thread(fifoTen);
    stat_fields main_thread = {-99, -1, -1};
    CHECK(read_stat(&main_thread));
    CHECK_EQ(LANEHOST_AFFINITY_SCHED_OTHER, main_thread.policy); /* thread-directed: the process stays normal */
}

static void childOfRealtime(void) {
    stat_fields child = {-99, -1, -1};
    CHECK(read_stat(&child));
    CHECK_EQ(LANEHOST_AFFINITY_SCHED_OTHER, child.policy);
    CHECK_EQ(0, child.rt_priority);
}

static void startsAChild(void) {
    if (lanehost_affinity_set_realtime(LANEHOST_AFFINITY_SCHED_RR, 5) != LANEHOST_AFFINITY_OK) {
        printf("skipped: SCHED_RR refused (errno %d)\n", lanehost_affinity_last_errno());
        return;
    }
    on_fresh_thread(childOfRealtime);
}

static void threadStartedByARealtimeThreadStartsNormal(void) {
    on_fresh_thread(startsAChild);
}

/* The nice this process started with: a fresh thread inherits it. */
static int starting_nice = 0;

static void outOfRange(void) {
    int32_t min, max;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_priority_range(LANEHOST_AFFINITY_SCHED_FIFO, &min, &max));
    CHECK_EQ(LANEHOST_AFFINITY_OUT_OF_RANGE, lanehost_affinity_set_realtime(LANEHOST_AFFINITY_SCHED_FIFO, min - 1));
    CHECK_EQ(LANEHOST_AFFINITY_OUT_OF_RANGE, lanehost_affinity_set_realtime(LANEHOST_AFFINITY_SCHED_RR, max + 1));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_set_realtime(LANEHOST_AFFINITY_SCHED_OTHER, 0));
    CHECK_EQ(LANEHOST_AFFINITY_OUT_OF_RANGE, lanehost_affinity_set_nice(20));
    CHECK_EQ(LANEHOST_AFFINITY_OUT_OF_RANGE, lanehost_affinity_set_nice(-21));
    stat_fields kernel = {-99, -1, -1};
    CHECK(read_stat(&kernel));
    CHECK_EQ(LANEHOST_AFFINITY_SCHED_OTHER, kernel.policy);
    CHECK_EQ(starting_nice, kernel.nice);
}

static void valuesOutsideTheKernelsRangeAreRefusedUntouched(void) {
    on_fresh_thread(outOfRange);
}

static void niceFive(void) {
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_set_nice(5));
    stat_fields kernel = {-99, -1, -1};
    CHECK(read_stat(&kernel));
    CHECK_EQ(5, kernel.nice);
    int32_t nice = -99;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_thread_priority(NULL, NULL, &nice));
    CHECK_EQ(5, nice);
}

static void niceIsSetForTheCallingThreadOnly(void) {
    on_fresh_thread(niceFive);
    stat_fields main_thread = {-99, -1, -1};
    CHECK(read_stat(&main_thread));
    CHECK_EQ(starting_nice, main_thread.nice);
}

static void priorityRangesAreTheKernels(void) {
    int32_t min = -1, max = -1;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_priority_range(LANEHOST_AFFINITY_SCHED_RR, &min, &max));
    CHECK_EQ(sched_get_priority_min(SCHED_RR), min);
    CHECK_EQ(sched_get_priority_max(SCHED_RR), max);
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_priority_range(LANEHOST_AFFINITY_SCHED_OTHER, &min, &max));
    CHECK_EQ(0, min);
    CHECK_EQ(0, max);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_priority_range(4, &min, &max));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_priority_range(LANEHOST_AFFINITY_SCHED_FIFO, NULL, &max));
}

static void realtimeLimitsAreTheProcesss(void) {
    int64_t rtprio = -2;
    int32_t cap = -1;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_realtime_limits(&rtprio, &cap));
    struct rlimit limit;
    CHECK_EQ(0, getrlimit(RLIMIT_RTPRIO, &limit));
    CHECK_EQ(limit.rlim_cur == RLIM_INFINITY ? -1 : (int64_t)limit.rlim_cur, rtprio);
    CHECK(cap == 0 || cap == 1);
}

int main(void) {
    stat_fields start = {-99, -1, -1};
    if (read_stat(&start)) {
        starting_nice = start.nice; /* the build may run niced: threads start from the process's nice, not 0 */
    }
    RUN_TEST(realtimeFifoTenReadsBackFromProcStat);
    RUN_TEST(threadStartedByARealtimeThreadStartsNormal);
    RUN_TEST(valuesOutsideTheKernelsRangeAreRefusedUntouched);
    RUN_TEST(niceIsSetForTheCallingThreadOnly);
    RUN_TEST(priorityRangesAreTheKernels);
    RUN_TEST(realtimeLimitsAreTheProcesss);
    return CHECK_EXIT();
}
