/* affinity_common.c - version, status texts, errno bookkeeping, sysfs text parsing, the constants report. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity_internal.h"
#include "constant_report.h"

/* Thread-local, so a failure on one thread is never reported to another. */
static _Thread_local int last_errno;
/* A path and a problem fit in it: sysfs paths are short, a fixture root under a build tree is longer. */
static _Thread_local char last_detail[AFFINITY_DETAIL_LENGTH];

uint32_t lanehost_affinity_abi_version(void) {
    return LANEHOST_AFFINITY_ABI_VERSION;
}

/* The same names as NativeLibraryLoader.platform(), so a bundled library and its report agree. */
const char *lanehost_affinity_platform(void) {
#if defined(__linux__)
#define AFFINITY_OS "linux"
#elif defined(__APPLE__)
#define AFFINITY_OS "darwin"
#elif defined(_WIN32)
#define AFFINITY_OS "windows"
#else
#define AFFINITY_OS "unknown"
#endif
#if defined(__x86_64__) || defined(_M_X64)
#define AFFINITY_ARCH "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define AFFINITY_ARCH "aarch64"
#else
#define AFFINITY_ARCH "unknown"
#endif
    return AFFINITY_OS "-" AFFINITY_ARCH;
}

const char *lanehost_affinity_status_text(int32_t status) {
    switch (status) {
    case LANEHOST_AFFINITY_OK: return "ok";
    case LANEHOST_AFFINITY_UNSUPPORTED: return "this platform or kernel cannot do it";
    case LANEHOST_AFFINITY_INVALID_ARGUMENT: return "invalid argument (NULL pointer, zero length, negative value or unknown flag)";
    case LANEHOST_AFFINITY_EMPTY_SET: return "the CPU set is empty";
    case LANEHOST_AFFINITY_CPU_NOT_ALLOWED: return "a CPU is outside the set this process may use (cgroup cpuset or taskset)";
    case LANEHOST_AFFINITY_BUFFER_TOO_SMALL: return "the buffer is too small";
    case LANEHOST_AFFINITY_PERMISSION_DENIED: return "the kernel refused: permission denied (seccomp filter or missing capability)";
    case LANEHOST_AFFINITY_NOT_FOUND: return "a sysfs directory or file does not exist";
    case LANEHOST_AFFINITY_MALFORMED: return "a sysfs file does not hold what it should";
    case LANEHOST_AFFINITY_UNKNOWN_NODE: return "the NUMA node is not online on this machine";
    case LANEHOST_AFFINITY_MISALIGNED: return "the memory range does not start on a page boundary";
    case LANEHOST_AFFINITY_NOT_APPLIED: return "the kernel accepted the mask but the thread reads back another one";
    case LANEHOST_AFFINITY_OUT_OF_MEMORY: return "out of memory";
    case LANEHOST_AFFINITY_NOT_MAPPED: return "part of the memory range is not mapped";
    case LANEHOST_AFFINITY_OS_ERROR: return "a system call failed (see the errno)";
    case LANEHOST_AFFINITY_OUT_OF_RANGE: return "a priority or nice value outside what the kernel accepts";
    default: return "unknown lanehost affinity status";
    }
}

int32_t lanehost_affinity_last_errno(void) {
    return last_errno;
}

void affinity_clear_errno(void) {
    last_errno = 0;
    last_detail[0] = '\0';
}

const char *lanehost_affinity_last_detail(void) {
    return last_detail;
}

void affinity_set_detail(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(last_detail, sizeof last_detail, format, arguments);
    va_end(arguments);
}

int32_t affinity_status_from_errno(int err) {
    last_errno = err;
    switch (err) {
    case ENOSYS: return LANEHOST_AFFINITY_UNSUPPORTED;
    case EPERM: return LANEHOST_AFFINITY_PERMISSION_DENIED;
    case EACCES: return LANEHOST_AFFINITY_PERMISSION_DENIED;
    case ENOENT: return LANEHOST_AFFINITY_NOT_FOUND;
    case ENOMEM: return LANEHOST_AFFINITY_OUT_OF_MEMORY;
    case EFAULT: return LANEHOST_AFFINITY_NOT_MAPPED;
    default: return LANEHOST_AFFINITY_OS_ERROR;
    }
}

int32_t affinity_read_text(const char *path, char *buffer, size_t size) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return affinity_status_from_errno(errno);
    }
    size_t length = fread(buffer, 1, size - 1, file);
    int failed = ferror(file);
    int more = !failed && fgetc(file) != EOF;
    fclose(file);
    if (failed) {
        return affinity_status_from_errno(EIO);
    }
    buffer[length] = '\0';
    return more ? LANEHOST_AFFINITY_MALFORMED : LANEHOST_AFFINITY_OK;
}

int32_t affinity_parse_int(const char *text, int32_t *value) {
    char *end;
    errno = 0;
    long parsed = strtol(text, &end, 10);
    if (end == text || errno != 0 || parsed < INT32_MIN || parsed > INT32_MAX) {
        return LANEHOST_AFFINITY_MALFORMED;
    }
    while (isspace((unsigned char)*end)) end++;
    if (*end != '\0') {
        return LANEHOST_AFFINITY_MALFORMED;
    }
    *value = (int32_t)parsed;
    return LANEHOST_AFFINITY_OK;
}

static int parse_cpu_number(const char **cursor, long *value) {
    if (!isdigit((unsigned char)**cursor)) {
        return 0;
    }
    char *end;
    errno = 0;
    *value = strtol(*cursor, &end, 10);
    if (errno != 0 || *value > INT32_MAX) {
        return 0;
    }
    *cursor = end;
    return 1;
}

int32_t affinity_parse_cpu_list(const char *text, uint64_t *words, uint32_t word_count) {
    memset(words, 0, (size_t)word_count * sizeof(uint64_t));
    const char *cursor = text;
    while (isspace((unsigned char)*cursor)) cursor++;
    if (*cursor == '\0') {
        return LANEHOST_AFFINITY_OK; /* sysfs writes an empty line for a node without CPUs */
    }
    for (;;) {
        long first, last;
        if (!parse_cpu_number(&cursor, &first)) {
            return LANEHOST_AFFINITY_MALFORMED;
        }
        last = first;
        if (*cursor == '-') {
            cursor++;
            if (!parse_cpu_number(&cursor, &last) || last < first) {
                return LANEHOST_AFFINITY_MALFORMED;
            }
        }
        if ((uint64_t)last >= (uint64_t)word_count * 64u) {
            return LANEHOST_AFFINITY_BUFFER_TOO_SMALL;
        }
        for (long cpu = first; cpu <= last; cpu++) {
            words[cpu / 64] |= UINT64_C(1) << (cpu % 64);
        }
        if (*cursor == ',') {
            cursor++;
            continue;
        }
        while (isspace((unsigned char)*cursor)) cursor++;
        return *cursor == '\0' ? LANEHOST_AFFINITY_OK : LANEHOST_AFFINITY_MALFORMED;
    }
}

int32_t affinity_first_cpu(const uint64_t *words, uint32_t word_count) {
    for (uint32_t w = 0; w < word_count; w++) {
        if (words[w] != 0) {
            return (int32_t)(w * 64u + (uint32_t)__builtin_ctzll(words[w]));
        }
    }
    return -1;
}

/* Names match dev.lanehost.affinity: AffinityStatus and SchedClass constants and internal.CpuRecordLayout. */
static const report_entry CONSTANTS[] = {
    {"ABI_VERSION", LANEHOST_AFFINITY_ABI_VERSION},
    {"STATUS_OK", LANEHOST_AFFINITY_OK},
    {"STATUS_UNSUPPORTED", LANEHOST_AFFINITY_UNSUPPORTED},
    {"STATUS_INVALID_ARGUMENT", LANEHOST_AFFINITY_INVALID_ARGUMENT},
    {"STATUS_EMPTY_SET", LANEHOST_AFFINITY_EMPTY_SET},
    {"STATUS_CPU_NOT_ALLOWED", LANEHOST_AFFINITY_CPU_NOT_ALLOWED},
    {"STATUS_BUFFER_TOO_SMALL", LANEHOST_AFFINITY_BUFFER_TOO_SMALL},
    {"STATUS_PERMISSION_DENIED", LANEHOST_AFFINITY_PERMISSION_DENIED},
    {"STATUS_NOT_FOUND", LANEHOST_AFFINITY_NOT_FOUND},
    {"STATUS_MALFORMED", LANEHOST_AFFINITY_MALFORMED},
    {"STATUS_UNKNOWN_NODE", LANEHOST_AFFINITY_UNKNOWN_NODE},
    {"STATUS_MISALIGNED", LANEHOST_AFFINITY_MISALIGNED},
    {"STATUS_NOT_APPLIED", LANEHOST_AFFINITY_NOT_APPLIED},
    {"STATUS_OUT_OF_MEMORY", LANEHOST_AFFINITY_OUT_OF_MEMORY},
    {"STATUS_NOT_MAPPED", LANEHOST_AFFINITY_NOT_MAPPED},
    {"STATUS_OS_ERROR", LANEHOST_AFFINITY_OS_ERROR},
    {"STATUS_OUT_OF_RANGE", LANEHOST_AFFINITY_OUT_OF_RANGE},
    {"SCHED_OTHER", LANEHOST_AFFINITY_SCHED_OTHER},
    {"SCHED_FIFO", LANEHOST_AFFINITY_SCHED_FIFO},
    {"SCHED_RR", LANEHOST_AFFINITY_SCHED_RR},
    {"SCHED_BATCH", LANEHOST_AFFINITY_SCHED_BATCH},
    {"SCHED_IDLE", LANEHOST_AFFINITY_SCHED_IDLE},
    {"SCHED_DEADLINE", LANEHOST_AFFINITY_SCHED_DEADLINE},
    {"CAP_HARD_AFFINITY", LANEHOST_AFFINITY_CAP_HARD_AFFINITY},
    {"CAP_NUMA_BINDING", LANEHOST_AFFINITY_CAP_NUMA_BINDING},
    {"CAP_CURRENT_CPU", LANEHOST_AFFINITY_CAP_CURRENT_CPU},
    {"CAP_TOPOLOGY", LANEHOST_AFFINITY_CAP_TOPOLOGY},
    {"BIND_STRICT", LANEHOST_AFFINITY_BIND_STRICT},
    {"BIND_MOVE", LANEHOST_AFFINITY_BIND_MOVE},
    {"CPU_RECORD_SIZE", sizeof(lanehost_affinity_cpu)},
    {"CPU_OFFSET", offsetof(lanehost_affinity_cpu, cpu)},
    {"ONLINE_OFFSET", offsetof(lanehost_affinity_cpu, online)},
    {"CORE_ID_OFFSET", offsetof(lanehost_affinity_cpu, core_id)},
    {"PACKAGE_ID_OFFSET", offsetof(lanehost_affinity_cpu, package_id)},
    {"L3_ID_OFFSET", offsetof(lanehost_affinity_cpu, l3_id)},
    {"L3_FIRST_CPU_OFFSET", offsetof(lanehost_affinity_cpu, l3_first_cpu)},
    {"NODE_OFFSET", offsetof(lanehost_affinity_cpu, node)},
};

const char *lanehost_affinity_constant_name(uint32_t index) {
    return report_name(CONSTANTS, REPORT_LENGTH(CONSTANTS), index);
}

int64_t lanehost_affinity_constant_value(const char *name, int32_t *found) {
    return report_value(CONSTANTS, REPORT_LENGTH(CONSTANTS), name, found);
}
