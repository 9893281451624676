/*
 * topology.c - logical CPUs to core, package, L3 cache domain and NUMA node, read from sysfs.
 *
 * Everything comes from text files under a root directory, so a test can point the same code at a
 * fixture tree shaped like a two-socket machine. Missing files are "sysfs does not say" (-1): old
 * kernels lack cache ids, offline CPUs lack topology, non-NUMA kernels lack devices/system/node.
 * A file that exists but holds garbage is MALFORMED: guessing would place threads wrongly.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "affinity_internal.h"

#define TEXT_LENGTH 4096
#define PATH_LENGTH 4096

typedef struct reader {
    const char *root;
    char path[PATH_LENGTH];
    char text[TEXT_LENGTH];
} reader;

/* Reads root + relative path into r->text. */
static int32_t read_relative(reader *r, const char *relative) {
    if ((size_t)snprintf(r->path, sizeof r->path, "%s/%s", r->root, relative) >= sizeof r->path) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    return affinity_read_text(r->path, r->text, sizeof r->text);
}

/* An int file that may be absent (-1); garbage in a present file is MALFORMED. */
static int32_t read_optional_int(reader *r, const char *relative, int32_t *value) {
    int32_t status = read_relative(r, relative);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) {
        affinity_clear_errno();
        *value = -1;
        return LANEHOST_AFFINITY_OK;
    }
    return status == LANEHOST_AFFINITY_OK ? affinity_parse_int(r->text, value) : status;
}

static int32_t read_list(reader *r, const char *relative, uint64_t *words) {
    int32_t status = read_relative(r, relative);
    return status == LANEHOST_AFFINITY_OK ? affinity_parse_cpu_list(r->text, words, AFFINITY_MAX_MASK_WORDS) : status;
}

static int is_set(const uint64_t *words, int32_t cpu) {
    return (words[cpu / 64] >> (cpu % 64)) & 1u;
}

/* Where present/possible are missing, the cpuN directories are the list. */
static int32_t scan_cpu_directories(reader *r, uint64_t *words) {
    snprintf(r->path, sizeof r->path, "%s/devices/system/cpu", r->root);
    DIR *directory = opendir(r->path);
    if (directory == NULL) {
        return affinity_status_from_errno(errno);
    }
    memset(words, 0, AFFINITY_MAX_MASK_WORDS * sizeof(uint64_t));
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        int cpu, consumed = 0;
        if (sscanf(entry->d_name, "cpu%d%n", &cpu, &consumed) == 1 && entry->d_name[consumed] == '\0' && cpu >= 0
            && (uint32_t)cpu < AFFINITY_MAX_MASK_WORDS * 64u) {
            words[cpu / 64] |= UINT64_C(1) << (cpu % 64);
        }
    }
    closedir(directory);
    return LANEHOST_AFFINITY_OK;
}

/* The level-3 data or unified cache of `cpu`: its id and the lowest CPU sharing it. */
static int32_t read_l3(reader *r, int32_t cpu, uint64_t *scratch, lanehost_affinity_cpu *out) {
    char relative[256];
    for (int index = 0; index < 64; index++) {
        int32_t level;
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/cache/index%d/level", cpu, index);
        int32_t status = read_optional_int(r, relative, &level);
        if (status != LANEHOST_AFFINITY_OK) return status;
        if (level < 0) return LANEHOST_AFFINITY_OK; /* indexN are numbered without gaps: no more caches */
        if (level != 3) continue;
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/cache/index%d/type", cpu, index);
        status = read_relative(r, relative);
        if (status == LANEHOST_AFFINITY_OK && strncmp(r->text, "Instruction", 11) == 0) continue;
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/cache/index%d/id", cpu, index);
        status = read_optional_int(r, relative, &out->l3_id);
        if (status != LANEHOST_AFFINITY_OK) return status;
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
        status = read_list(r, relative, scratch);
        if (status == LANEHOST_AFFINITY_NOT_FOUND) {
            affinity_clear_errno();
            out->l3_first_cpu = cpu; /* sharing unknown: the CPU is a domain of its own */
            return LANEHOST_AFFINITY_OK;
        }
        if (status != LANEHOST_AFFINITY_OK) return status;
        out->l3_first_cpu = affinity_first_cpu(scratch, AFFINITY_MAX_MASK_WORDS);
        return out->l3_first_cpu < 0 ? LANEHOST_AFFINITY_MALFORMED : LANEHOST_AFFINITY_OK;
    }
    return LANEHOST_AFFINITY_OK;
}

/* Each devices/system/node/nodeN/cpulist claims its CPUs for node N. */
static int32_t read_nodes(reader *r, lanehost_affinity_cpu *cpus, uint32_t count, uint64_t *scratch) {
    snprintf(r->path, sizeof r->path, "%s/devices/system/node", r->root);
    DIR *directory = opendir(r->path);
    if (directory == NULL) {
        return LANEHOST_AFFINITY_OK; /* a kernel without NUMA support: nodes stay unknown */
    }
    int32_t status = LANEHOST_AFFINITY_OK;
    struct dirent *entry;
    char relative[256];
    while (status == LANEHOST_AFFINITY_OK && (entry = readdir(directory)) != NULL) {
        int node, consumed = 0;
        if (sscanf(entry->d_name, "node%d%n", &node, &consumed) != 1 || entry->d_name[consumed] != '\0' || node < 0) {
            continue;
        }
        snprintf(relative, sizeof relative, "devices/system/node/node%d/cpulist", node);
        status = read_list(r, relative, scratch);
        if (status == LANEHOST_AFFINITY_NOT_FOUND) {
            affinity_clear_errno();
            status = LANEHOST_AFFINITY_OK;
            continue;
        }
        for (uint32_t i = 0; status == LANEHOST_AFFINITY_OK && i < count; i++) {
            if (is_set(scratch, cpus[i].cpu)) cpus[i].node = node;
        }
    }
    closedir(directory);
    return status;
}

int32_t lanehost_affinity_topology(const char *sysfs_root, lanehost_affinity_cpu *cpus, uint32_t capacity, uint32_t *count) {
    affinity_clear_errno();
    if (count == NULL || (cpus == NULL && capacity > 0)) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    *count = 0;
#if !defined(__linux__)
    if (sysfs_root == NULL) return LANEHOST_AFFINITY_UNSUPPORTED; /* only Linux has a /sys to read */
#endif
    reader *r = malloc(sizeof(reader));
    uint64_t *present = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
    uint64_t *online = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
    uint64_t *scratch = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
    int32_t status = LANEHOST_AFFINITY_OK;
    if (r == NULL || present == NULL || online == NULL || scratch == NULL) {
        status = LANEHOST_AFFINITY_OUT_OF_MEMORY;
        goto done;
    }
    r->root = sysfs_root != NULL ? sysfs_root : "/sys";

    struct stat info;
    snprintf(r->path, sizeof r->path, "%s/devices/system/cpu", r->root);
    if (stat(r->path, &info) != 0 || !S_ISDIR(info.st_mode)) {
        status = LANEHOST_AFFINITY_NOT_FOUND;
        goto done;
    }
    status = read_list(r, "devices/system/cpu/present", present);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) status = read_list(r, "devices/system/cpu/possible", present);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) status = scan_cpu_directories(r, present);
    if (status != LANEHOST_AFFINITY_OK) goto done;
    affinity_clear_errno();

    status = read_list(r, "devices/system/cpu/online", online);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) {
        affinity_clear_errno();
        memcpy(online, present, AFFINITY_MAX_MASK_WORDS * sizeof(uint64_t)); /* no hotplug support: all are online */
        status = LANEHOST_AFFINITY_OK;
    }
    if (status != LANEHOST_AFFINITY_OK) goto done;

    uint32_t total = 0;
    for (uint32_t w = 0; w < AFFINITY_MAX_MASK_WORDS; w++) total += (uint32_t)__builtin_popcountll(present[w]);
    if (total > capacity) {
        *count = total;
        status = LANEHOST_AFFINITY_BUFFER_TOO_SMALL;
        goto done;
    }

    uint32_t filled = 0;
    char relative[256];
    for (int32_t cpu = 0; cpu < (int32_t)(AFFINITY_MAX_MASK_WORDS * 64u) && filled < total; cpu++) {
        if (!is_set(present, cpu)) continue;
        lanehost_affinity_cpu *out = &cpus[filled++];
        *out = (lanehost_affinity_cpu){cpu, is_set(online, cpu), -1, -1, -1, -1, -1};
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/topology/core_id", cpu);
        if ((status = read_optional_int(r, relative, &out->core_id)) != LANEHOST_AFFINITY_OK) goto done;
        snprintf(relative, sizeof relative, "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        if ((status = read_optional_int(r, relative, &out->package_id)) != LANEHOST_AFFINITY_OK) goto done;
        if ((status = read_l3(r, cpu, scratch, out)) != LANEHOST_AFFINITY_OK) goto done;
    }
    status = read_nodes(r, cpus, filled, scratch);
    if (status == LANEHOST_AFFINITY_OK) *count = filled;

done:
    free(r);
    free(present);
    free(online);
    free(scratch);
    return status;
}
