/*
 * thread_priority.c - the calling thread's scheduling class, real-time priority and nice value.
 *
 * Everything here is thread-directed: on Linux, sched_setscheduler(0, ...) and setpriority(PRIO_PROCESS,
 * gettid(), ...) change the calling thread only, so a worker can go real-time without taking the JVM's
 * other threads (GC, JIT, the host's) along. What was obtained is always read back from the kernel:
 * a caller records what the thread has, not what a call returned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>

#include "affinity_internal.h"

#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Linux's values, spelled out so the build needs no kernel headers (sched.h hides some behind _GNU_SOURCE). */
#define PRIORITY_SCHED_RESET_ON_FORK 0x40000000
#define PRIORITY_CAP_SYS_NICE 23
#define PRIORITY_CAPABILITY_VERSION_3 0x20080522u
#define PRIORITY_NICE_MIN (-20)
#define PRIORITY_NICE_MAX 19

/* capget(2)'s structures, as <linux/capability.h> declares them. */
struct priority_cap_header {
    uint32_t version;
    int32_t pid;
};
struct priority_cap_data {
    uint32_t effective;
    uint32_t permitted;
    uint32_t inheritable;
};

static int known_class(int32_t sched_class) {
    switch (sched_class) {
    case LANEHOST_AFFINITY_SCHED_OTHER:
    case LANEHOST_AFFINITY_SCHED_FIFO:
    case LANEHOST_AFFINITY_SCHED_RR:
    case LANEHOST_AFFINITY_SCHED_BATCH:
    case LANEHOST_AFFINITY_SCHED_IDLE:
    case LANEHOST_AFFINITY_SCHED_DEADLINE:
        return 1;
    default:
        return 0;
    }
}

/* getpriority returns -1 both for nice -1 and for a failure: only errno tells them apart. */
static int32_t read_nice(int32_t *nice) {
    errno = 0;
    int value = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    if (value == -1 && errno != 0) {
        return affinity_status_from_errno(errno);
    }
    *nice = value;
    return LANEHOST_AFFINITY_OK;
}

static int32_t read_scheduling(int32_t *sched_class, int32_t *priority) {
    int policy = sched_getscheduler(0);
    if (policy < 0) {
        return affinity_status_from_errno(errno);
    }
    struct sched_param param;
    if (sched_getparam(0, &param) != 0) {
        return affinity_status_from_errno(errno);
    }
    *sched_class = policy & ~PRIORITY_SCHED_RESET_ON_FORK;
    *priority = param.sched_priority;
    return LANEHOST_AFFINITY_OK;
}
#endif

int32_t lanehost_affinity_priority_range(int32_t sched_class, int32_t *min, int32_t *max) {
    affinity_clear_errno();
    if (min == NULL || max == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__)
    if (!known_class(sched_class)) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    int low = sched_get_priority_min(sched_class);
    if (low < 0) {
        return affinity_status_from_errno(errno);
    }
    int high = sched_get_priority_max(sched_class);
    if (high < 0) {
        return affinity_status_from_errno(errno);
    }
    *min = low;
    *max = high;
    return LANEHOST_AFFINITY_OK;
#else
    (void)sched_class;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_set_realtime(int32_t sched_class, int32_t priority) {
    affinity_clear_errno();
    if (sched_class != LANEHOST_AFFINITY_SCHED_FIFO && sched_class != LANEHOST_AFFINITY_SCHED_RR) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__)
    int32_t min, max;
    int32_t status = lanehost_affinity_priority_range(sched_class, &min, &max);
    if (status != LANEHOST_AFFINITY_OK) {
        return status;
    }
    if (priority < min || priority > max) {
        return LANEHOST_AFFINITY_OUT_OF_RANGE;
    }
    /*
     * RESET_ON_FORK: a thread this one starts (a JVM thread created from a worker) must not inherit a
     * real-time class nobody chose for it; a runaway FIFO thread starves everything below it.
     */
    struct sched_param param = {.sched_priority = priority};
    if (sched_setscheduler(0, sched_class | PRIORITY_SCHED_RESET_ON_FORK, &param) != 0) {
        return affinity_status_from_errno(errno);
    }
    int32_t obtained_class = -1, obtained_priority = -1;
    status = read_scheduling(&obtained_class, &obtained_priority);
    if (status != LANEHOST_AFFINITY_OK) {
        return status;
    }
    return obtained_class == sched_class && obtained_priority == priority ? LANEHOST_AFFINITY_OK
                                                                          : LANEHOST_AFFINITY_NOT_APPLIED;
#else
    (void)priority;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_set_nice(int32_t nice) {
    affinity_clear_errno();
#if defined(__linux__)
    if (nice < PRIORITY_NICE_MIN || nice > PRIORITY_NICE_MAX) {
        return LANEHOST_AFFINITY_OUT_OF_RANGE;
    }
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) != 0) {
        /* EACCES is how setpriority says "lowering nice needs CAP_SYS_NICE": the same refusal as EPERM. */
        return affinity_status_from_errno(errno);
    }
    int32_t obtained = 0;
    int32_t status = read_nice(&obtained);
    if (status != LANEHOST_AFFINITY_OK) {
        return status;
    }
    return obtained == nice ? LANEHOST_AFFINITY_OK : LANEHOST_AFFINITY_NOT_APPLIED;
#else
    (void)nice;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_thread_priority(int32_t *sched_class, int32_t *priority, int32_t *nice) {
    affinity_clear_errno();
#if defined(__linux__)
    int32_t obtained_class = -1, obtained_priority = -1, obtained_nice = 0;
    int32_t status = read_scheduling(&obtained_class, &obtained_priority);
    if (status == LANEHOST_AFFINITY_OK) {
        status = read_nice(&obtained_nice);
    }
    if (status != LANEHOST_AFFINITY_OK) {
        return status;
    }
    if (sched_class != NULL) *sched_class = obtained_class;
    if (priority != NULL) *priority = obtained_priority;
    if (nice != NULL) *nice = obtained_nice;
    return LANEHOST_AFFINITY_OK;
#else
    (void)sched_class;
    (void)priority;
    (void)nice;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_realtime_limits(int64_t *rtprio_limit, int32_t *cap_sys_nice) {
    affinity_clear_errno();
#if defined(__linux__)
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTPRIO, &limit) != 0) {
        return affinity_status_from_errno(errno);
    }
    struct priority_cap_header header = {.version = PRIORITY_CAPABILITY_VERSION_3, .pid = 0};
    struct priority_cap_data data[2] = {{0, 0, 0}, {0, 0, 0}};
    if (syscall(SYS_capget, &header, data) != 0) {
        return affinity_status_from_errno(errno);
    }
    if (rtprio_limit != NULL) *rtprio_limit = limit.rlim_cur == RLIM_INFINITY ? -1 : (int64_t)limit.rlim_cur;
    if (cap_sys_nice != NULL) *cap_sys_nice = (data[0].effective >> PRIORITY_CAP_SYS_NICE) & 1u;
    return LANEHOST_AFFINITY_OK;
#else
    (void)rtprio_limit;
    (void)cap_sys_nice;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}
