/*
 * lanehost_affinity.h - CPU affinity, topology and NUMA memory binding for lanehost.
 *
 * Contract, for every function here:
 *  1. It returns a status (lanehost_affinity_status) and never aborts, never exits, never prints.
 *  2. Where the platform or kernel cannot do something it returns LANEHOST_AFFINITY_UNSUPPORTED,
 *     so a caller can always ask "can I?" instead of catching a failure.
 *  3. Bad input (NULL, zero length, a negative CPU, an unknown flag) is INVALID_ARGUMENT or a more
 *     precise status; it never reaches the kernel.
 *  4. When the status comes from a failed system call, lanehost_affinity_last_errno() on the same
 *     thread returns that call's errno until the next call into this library; when a sysfs file is
 *     MALFORMED, lanehost_affinity_last_detail() names the file and what is wrong with it.
 *
 * CPU masks cross this ABI as arrays of uint64_t words, CPU n being bit (n % 64) of word n / 64:
 * exactly java.util.BitSet.toLongArray()'s order, so Java hands its bits over without reshuffling.
 */
#ifndef LANEHOST_AFFINITY_H
#define LANEHOST_AFFINITY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of an exported function or of lanehost_affinity_cpu. */
#define LANEHOST_AFFINITY_ABI_VERSION 1u

#if defined(__GNUC__)
#define LANEHOST_AFFINITY_EXPORT __attribute__((visibility("default")))
#else
#define LANEHOST_AFFINITY_EXPORT
#endif

/* Stable numbers: dev.lanehost.affinity.AffinityStatus mirrors them and a test compares the two. */
typedef enum lanehost_affinity_status {
    LANEHOST_AFFINITY_OK = 0,
    LANEHOST_AFFINITY_UNSUPPORTED = -1,       /* this platform or kernel cannot do it */
    LANEHOST_AFFINITY_INVALID_ARGUMENT = -2,  /* NULL pointer, zero length, negative value, unknown flag */
    LANEHOST_AFFINITY_EMPTY_SET = -3,         /* a CPU mask with no CPU in it */
    LANEHOST_AFFINITY_CPU_NOT_ALLOWED = -4,   /* a CPU outside the process's allowed set (cpuset, taskset) */
    LANEHOST_AFFINITY_BUFFER_TOO_SMALL = -5,  /* the caller's buffer is short; the out-count says how long */
    LANEHOST_AFFINITY_PERMISSION_DENIED = -6, /* EPERM: a seccomp filter or missing capability */
    LANEHOST_AFFINITY_NOT_FOUND = -7,         /* a sysfs directory or file does not exist */
    LANEHOST_AFFINITY_MALFORMED = -8,         /* a sysfs file holds something that is not what it should */
    LANEHOST_AFFINITY_UNKNOWN_NODE = -9,      /* a NUMA node that is not online here */
    LANEHOST_AFFINITY_MISALIGNED = -10,       /* a memory range that does not start on a page boundary */
    LANEHOST_AFFINITY_NOT_APPLIED = -11,      /* the kernel accepted a mask but the thread reads back another */
    LANEHOST_AFFINITY_OUT_OF_MEMORY = -12,
    LANEHOST_AFFINITY_NOT_MAPPED = -13,       /* part of a memory range is not mapped (EFAULT) */
    LANEHOST_AFFINITY_OS_ERROR = -14,         /* any other failed system call; see lanehost_affinity_last_errno */
    LANEHOST_AFFINITY_OUT_OF_RANGE = -15      /* a priority or nice value outside what the kernel accepts */
} lanehost_affinity_status;

/* What lanehost_affinity_probe can be asked about. */
typedef enum lanehost_affinity_capability {
    LANEHOST_AFFINITY_CAP_HARD_AFFINITY = 1, /* sched_setaffinity on the calling thread works */
    LANEHOST_AFFINITY_CAP_NUMA_BINDING = 2,  /* mbind works (kernel with CONFIG_NUMA, not filtered) */
    LANEHOST_AFFINITY_CAP_CURRENT_CPU = 3,   /* getcpu works */
    LANEHOST_AFFINITY_CAP_TOPOLOGY = 4       /* /sys/devices/system/cpu is readable */
} lanehost_affinity_capability;

/*
 * Scheduling classes, with Linux's numbers (SCHED_OTHER ...). A thread can be set to FIFO or RR only;
 * the others can be read back from a thread something else configured.
 */
typedef enum lanehost_affinity_sched_class {
    LANEHOST_AFFINITY_SCHED_OTHER = 0,   /* the normal time-sharing class; its weight is the nice value */
    LANEHOST_AFFINITY_SCHED_FIFO = 1,    /* real-time, runs until it blocks or a higher priority wakes */
    LANEHOST_AFFINITY_SCHED_RR = 2,      /* real-time, round-robin among equal priorities */
    LANEHOST_AFFINITY_SCHED_BATCH = 3,
    LANEHOST_AFFINITY_SCHED_IDLE = 5,
    LANEHOST_AFFINITY_SCHED_DEADLINE = 6
} lanehost_affinity_sched_class;

/* Flags of lanehost_affinity_bind_memory. */
#define LANEHOST_AFFINITY_BIND_STRICT 1u /* MPOL_BIND: fail allocation instead of spilling to another node */
#define LANEHOST_AFFINITY_BIND_MOVE 2u   /* MPOL_MF_MOVE: also migrate pages already faulted in */

/* One logical CPU as sysfs describes it. -1 in a field means "sysfs does not say". */
typedef struct lanehost_affinity_cpu {
    int32_t cpu;          /* logical CPU number, as sched_setaffinity and taskset count */
    int32_t online;       /* 1 if listed in devices/system/cpu/online, else 0 */
    int32_t core_id;      /* topology/core_id: unique only within its package */
    int32_t package_id;   /* topology/physical_package_id */
    int32_t l3_id;        /* cache/indexN/id of the level-3 cache (kernels before 4.x lack it) */
    int32_t l3_first_cpu; /* lowest CPU of that cache's shared_cpu_list: a key unique across packages */
    int32_t node;         /* NUMA node whose cpulist holds this CPU */
} lanehost_affinity_cpu;

/* The ABI version this library was built with; the Java loader refuses a mismatch. */
LANEHOST_AFFINITY_EXPORT uint32_t lanehost_affinity_abi_version(void);

/* The platform the library was compiled for, e.g. "linux-x86_64" (never NULL). */
LANEHOST_AFFINITY_EXPORT const char *lanehost_affinity_platform(void);

/* A one-line message for a status (never NULL). */
LANEHOST_AFFINITY_EXPORT const char *lanehost_affinity_status_text(int32_t status);

/* The errno of the last failed system call made by this library on the calling thread, or 0. */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_last_errno(void);

/*
 * What the last call of this library on the calling thread found wrong, beyond its status: for MALFORMED
 * from the topology readers, the sysfs file and its problem ("<root>/devices/system/cpu/present is
 * empty"). "" when there is nothing to add; never NULL. Valid until the next call into this library.
 */
LANEHOST_AFFINITY_EXPORT const char *lanehost_affinity_last_detail(void);

/* OK if this process can use the capability right now, else the status saying why not. */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_probe(int32_t capability);

/* The kernel's id of the calling thread (gettid), as named in /proc/self/task/<tid>. */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_current_thread_id(int64_t *tid);

/* The CPU the calling thread runs on at this instant, and that CPU's NUMA node (either may be NULL). */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_current_cpu(int32_t *cpu, int32_t *node);

/*
 * The CPUs this process may use: sched_getaffinity of the thread-group leader, which the kernel keeps
 * within the cgroup cpuset, so in a container it is what the container allows, not 0..nproc-1.
 * On OK, *words_needed is the number of words holding a set bit; words past it are zeroed.
 * On BUFFER_TOO_SMALL, *words_needed is the word count required.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_allowed_cpus(uint64_t *words, uint32_t word_count, uint32_t *words_needed);

/* The calling thread's current affinity mask; the same buffer rules as lanehost_affinity_allowed_cpus. */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_thread_mask(uint64_t *words, uint32_t word_count, uint32_t *words_needed);

/*
 * Pins the calling thread to the CPUs in the mask. Refuses, without touching the thread, an empty
 * mask (EMPTY_SET) or one naming a CPU outside lanehost_affinity_allowed_cpus (CPU_NOT_ALLOWED,
 * the first such CPU in *refused_cpu, which may be NULL) - the kernel would otherwise drop those CPUs
 * silently. After the call the mask is read back; a difference is NOT_APPLIED.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_pin_thread(const uint64_t *words, uint32_t word_count, int32_t *refused_cpu);

/*
 * Reads the CPU topology under sysfs_root (NULL: "/sys"; a test passes a fixture directory).
 * Fills cpus[0..*count) ordered by CPU number. On BUFFER_TOO_SMALL, *count is the number of CPUs.
 * NOT_FOUND if sysfs_root has no devices/system/cpu. An offline CPU is listed with core, package,
 * L3 and node all -1, whatever sysfs still says of it (arm64 and powerpc keep its files and list it
 * in its node's cpulist). MALFORMED, with the file in lanehost_affinity_last_detail(), if a file holds
 * garbage, the present/possible/online list is empty, or a list names a CPU at or past 65536.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_topology(const char *sysfs_root, lanehost_affinity_cpu *cpus,
                                                            uint32_t capacity, uint32_t *count);

/*
 * The online NUMA nodes under sysfs_root (NULL: "/sys"), in the mask word format, node n being bit n:
 * devices/system/node/online, or the nodeN directories where that file is missing. A node with memory
 * but no CPUs (an empty cpulist: CXL or HBM memory, a CPU-less node) is included. Without
 * devices/system/node (a kernel without NUMA) the set is empty and the status OK. The same buffer
 * rules as lanehost_affinity_allowed_cpus; a node number past the words this library handles is MALFORMED.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_numa_nodes(const char *sysfs_root, uint64_t *words, uint32_t word_count,
                                                              uint32_t *words_needed);

/* The page size mbind works in. */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_page_size(int64_t *page_size);

/*
 * Binds the pages of [address, address + length) to NUMA node `node` (mbind via syscall, no libnuma).
 * Default mode MPOL_PREFERRED: allocate there when possible, elsewhere otherwise - the best effort the
 * runtime wants. LANEHOST_AFFINITY_BIND_STRICT selects MPOL_BIND. The address must be page-aligned
 * (MISALIGNED otherwise: rounding down would silently bind a neighbour's memory too).
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_bind_memory(void *address, uint64_t length, int32_t node, uint32_t flags);

/*
 * The NUMA node holding the page at `address`: get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR). Write to the page
 * first: an untouched anonymous page is faulted in as the shared zero page, whose node says nothing.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_memory_node(void *address, int32_t *node);

/*
 * The priorities the kernel accepts for a scheduling class (sched_get_priority_min/max): 1..99 for FIFO
 * and RR on Linux, 0..0 for the others. INVALID_ARGUMENT for a class this header does not name.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_priority_range(int32_t sched_class, int32_t *min, int32_t *max);

/*
 * Puts the calling thread - only it, not its process - in real-time class FIFO or RR at `priority`
 * (sched_setscheduler(0, ...), with SCHED_RESET_ON_FORK so a thread it starts begins in SCHED_OTHER at
 * nice 0 instead of inheriting the real-time class). OUT_OF_RANGE, before the kernel sees it, for a
 * priority outside lanehost_affinity_priority_range; PERMISSION_DENIED (errno EPERM) without
 * CAP_SYS_NICE and with RLIMIT_RTPRIO below `priority`, or in a cgroup with no real-time budget. The
 * class and priority are read back; a difference is NOT_APPLIED.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_set_realtime(int32_t sched_class, int32_t priority);

/*
 * Sets the calling thread's nice value (setpriority(PRIO_PROCESS, gettid(), nice): Linux gives every
 * thread its own). OUT_OF_RANGE outside -20..19; PERMISSION_DENIED for a nice below the current one
 * without CAP_SYS_NICE or a high enough RLIMIT_NICE. Read back; a difference is NOT_APPLIED.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_set_nice(int32_t nice);

/*
 * The calling thread's scheduling as the kernel reports it: class (SCHED_RESET_ON_FORK masked off),
 * real-time priority (0 outside FIFO and RR) and nice. Any pointer may be NULL.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_thread_priority(int32_t *sched_class, int32_t *priority, int32_t *nice);

/*
 * What decides whether the calling thread may go real-time without privilege: RLIMIT_RTPRIO (soft
 * limit; -1 for unlimited) and whether CAP_SYS_NICE is in the thread's effective set (1 or 0). Read so
 * that a refusal can say which one was missing. Either pointer may be NULL.
 */
LANEHOST_AFFINITY_EXPORT int32_t lanehost_affinity_realtime_limits(int64_t *rtprio_limit, int32_t *cap_sys_nice);

/*
 * Every constant Java must agree with (statuses, capabilities, flags, the lanehost_affinity_cpu layout),
 * by name: the name of entry `index`, or NULL past the last entry.
 */
LANEHOST_AFFINITY_EXPORT const char *lanehost_affinity_constant_name(uint32_t index);

/* The value of the named constant; *found is set to 1 if the name is known, else 0. */
LANEHOST_AFFINITY_EXPORT int64_t lanehost_affinity_constant_value(const char *name, int32_t *found);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_AFFINITY_H */
