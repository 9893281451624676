/*
 * cpu_affinity.c - pinning the calling thread, reading masks, the current CPU, capability probes.
 *
 * Why the pin is validated here and not left to the kernel: sched_setaffinity intersects the request
 * with the cgroup cpuset and succeeds if anything is left, so "pin to {1, 5}" in a container allowed
 * {0, 1} silently becomes "pin to {1}". The caller asked for something it cannot have, and says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity_internal.h"

#if defined(__linux__)
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* sched_getaffinity refuses (EINVAL) a buffer shorter than the kernel's nr_cpu_ids: grow until it fits. */
static int32_t read_affinity(pid_t who, uint64_t *words, uint32_t word_count, uint32_t *words_needed) {
    for (uint32_t cpus = 1024; cpus <= AFFINITY_MAX_MASK_WORDS * 64u; cpus *= 2) {
        cpu_set_t *set = CPU_ALLOC(cpus);
        if (set == NULL) {
            return LANEHOST_AFFINITY_OUT_OF_MEMORY;
        }
        size_t size = CPU_ALLOC_SIZE(cpus);
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(who, size, set) == 0) {
            uint32_t needed = 0;
            for (uint32_t cpu = 0; cpu < size * 8u; cpu++) {
                if (CPU_ISSET_S(cpu, size, set)) needed = cpu / 64u + 1u;
            }
            *words_needed = needed;
            if (needed > word_count) {
                CPU_FREE(set);
                return LANEHOST_AFFINITY_BUFFER_TOO_SMALL;
            }
            memset(words, 0, (size_t)word_count * sizeof(uint64_t));
            for (uint32_t cpu = 0; cpu < needed * 64u && cpu < size * 8u; cpu++) {
                if (CPU_ISSET_S(cpu, size, set)) words[cpu / 64u] |= UINT64_C(1) << (cpu % 64u);
            }
            CPU_FREE(set);
            return LANEHOST_AFFINITY_OK;
        }
        int err = errno;
        CPU_FREE(set);
        if (err != EINVAL) {
            return affinity_status_from_errno(err);
        }
    }
    return affinity_status_from_errno(EINVAL);
}

static int32_t write_affinity(const uint64_t *words, uint32_t word_count) {
    uint32_t cpus = word_count * 64u;
    cpu_set_t *set = CPU_ALLOC(cpus);
    if (set == NULL) {
        return LANEHOST_AFFINITY_OUT_OF_MEMORY;
    }
    size_t size = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(size, set);
    for (uint32_t cpu = 0; cpu < cpus; cpu++) {
        if (words[cpu / 64u] & (UINT64_C(1) << (cpu % 64u))) CPU_SET_S(cpu, size, set);
    }
    int32_t status = sched_setaffinity(0, size, set) == 0 ? LANEHOST_AFFINITY_OK : affinity_status_from_errno(errno);
    CPU_FREE(set);
    return status;
}
#endif

int32_t lanehost_affinity_allowed_cpus(uint64_t *words, uint32_t word_count, uint32_t *words_needed) {
    affinity_clear_errno();
    if (words == NULL || words_needed == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__)
    /* The thread-group leader's mask: nobody in lanehost pins the JVM's primordial thread. */
    return read_affinity(getpid(), words, word_count, words_needed);
#else
    (void)word_count;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_thread_mask(uint64_t *words, uint32_t word_count, uint32_t *words_needed) {
    affinity_clear_errno();
    if (words == NULL || words_needed == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__)
    return read_affinity(0, words, word_count, words_needed);
#else
    (void)word_count;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_pin_thread(const uint64_t *words, uint32_t word_count, int32_t *refused_cpu) {
    affinity_clear_errno();
    if (refused_cpu != NULL) *refused_cpu = -1;
    if (words == NULL || word_count == 0 || word_count > AFFINITY_MAX_MASK_WORDS) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    if (affinity_first_cpu(words, word_count) < 0) {
        return LANEHOST_AFFINITY_EMPTY_SET;
    }
#if defined(__linux__)
    uint64_t *scratch = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
    if (scratch == NULL) {
        return LANEHOST_AFFINITY_OUT_OF_MEMORY;
    }
    uint32_t needed;
    int32_t status = read_affinity(getpid(), scratch, AFFINITY_MAX_MASK_WORDS, &needed);
    if (status == LANEHOST_AFFINITY_OK) {
        for (uint32_t w = 0; w < word_count; w++) {
            uint64_t refused = words[w] & ~scratch[w];
            if (refused != 0) {
                if (refused_cpu != NULL) *refused_cpu = (int32_t)(w * 64u + (uint32_t)__builtin_ctzll(refused));
                free(scratch);
                return LANEHOST_AFFINITY_CPU_NOT_ALLOWED;
            }
        }
        status = write_affinity(words, word_count);
    }
    if (status == LANEHOST_AFFINITY_OK) {
        /* Read back: what matters is the mask the thread has, not what the call returned. */
        status = read_affinity(0, scratch, AFFINITY_MAX_MASK_WORDS, &needed);
        if (status == LANEHOST_AFFINITY_OK) {
            for (uint32_t w = 0; w < AFFINITY_MAX_MASK_WORDS; w++) {
                if (scratch[w] != (w < word_count ? words[w] : 0)) {
                    status = LANEHOST_AFFINITY_NOT_APPLIED;
                    break;
                }
            }
        }
    }
    free(scratch);
    return status;
#else
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_current_thread_id(int64_t *tid) {
    affinity_clear_errno();
    if (tid == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__)
    *tid = (int64_t)syscall(SYS_gettid);
    return LANEHOST_AFFINITY_OK;
#else
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_current_cpu(int32_t *cpu, int32_t *node) {
    affinity_clear_errno();
#if defined(__linux__) && defined(SYS_getcpu)
    unsigned int on_cpu = 0, on_node = 0;
    if (syscall(SYS_getcpu, &on_cpu, &on_node, NULL) != 0) {
        return affinity_status_from_errno(errno);
    }
    if (cpu != NULL) *cpu = (int32_t)on_cpu;
    if (node != NULL) *node = (int32_t)on_node;
    return LANEHOST_AFFINITY_OK;
#else
    (void)cpu;
    (void)node;
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_probe(int32_t capability) {
    affinity_clear_errno();
    switch (capability) {
    case LANEHOST_AFFINITY_CAP_HARD_AFFINITY: {
#if defined(__linux__)
        /* Re-applying the thread's own mask changes nothing and proves the call is not filtered. */
        uint64_t *mask = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
        if (mask == NULL) return LANEHOST_AFFINITY_OUT_OF_MEMORY;
        uint32_t needed;
        int32_t status = read_affinity(0, mask, AFFINITY_MAX_MASK_WORDS, &needed);
        if (status == LANEHOST_AFFINITY_OK) status = needed > 0 ? write_affinity(mask, needed) : LANEHOST_AFFINITY_MALFORMED;
        free(mask);
        return status;
#else
        return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
    }
    case LANEHOST_AFFINITY_CAP_NUMA_BINDING: {
#if defined(__linux__) && defined(SYS_mbind)
        /* MPOL_DEFAULT on a private page: the same system call the binding uses, with no effect. */
        long page = sysconf(_SC_PAGESIZE);
        void *probe = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (probe == MAP_FAILED) return affinity_status_from_errno(errno);
        int32_t status = syscall(SYS_mbind, probe, (unsigned long)page, 0 /* MPOL_DEFAULT */, NULL, 0UL, 0U) == 0
                             ? LANEHOST_AFFINITY_OK
                             : affinity_status_from_errno(errno);
        munmap(probe, (size_t)page);
        return status;
#else
        return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
    }
    case LANEHOST_AFFINITY_CAP_CURRENT_CPU:
        return lanehost_affinity_current_cpu(NULL, NULL);
    case LANEHOST_AFFINITY_CAP_TOPOLOGY:
#if defined(__linux__)
        return access("/sys/devices/system/cpu", R_OK | X_OK) == 0 ? LANEHOST_AFFINITY_OK : affinity_status_from_errno(errno);
#else
        return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
    default:
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
}
