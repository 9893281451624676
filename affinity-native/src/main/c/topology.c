/*
 * topology.c - logical CPUs to core, package, L3 cache domain and NUMA node, read from sysfs.
 *
 * Everything comes from text files under a root directory, so a test can point the same code at a
 * fixture tree shaped like a two-socket machine. Missing files are "sysfs does not say" (-1): old
 * kernels lack cache ids, offline CPUs lack topology on x86, non-NUMA kernels lack devices/system/node.
 * An offline CPU is never read at all: arm64 and powerpc keep its topology files and list it in its
 * node's cpulist, and a thread placed by them would land on a CPU that cannot run it.
 * A file that exists but holds garbage is MALFORMED, and lanehost_affinity_last_detail() names the
 * file and its problem: guessing would place threads wrongly.
 */
#define _GNU_SOURCE
#include <ctype.h>
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

/* r->text without its trailing newline, for quoting in a detail. */
static const char *quoted_text(reader *r) {
    size_t length = strlen(r->text);
    while (length > 0 && (r->text[length - 1] == '\n' || r->text[length - 1] == ' ')) r->text[--length] = '\0';
    return r->text;
}

/* Reads root + relative path into r->text. */
static int32_t read_relative(reader *r, const char *relative) {
    if ((size_t)snprintf(r->path, sizeof r->path, "%s/%s", r->root, relative) >= sizeof r->path) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    int32_t status = affinity_read_text(r->path, r->text, sizeof r->text);
    if (status == LANEHOST_AFFINITY_MALFORMED) {
        affinity_set_detail("%s is longer than the %u bytes any such sysfs file holds", r->path, TEXT_LENGTH - 1u);
    }
    return status;
}

/* An int file that may be absent (-1); garbage in a present file is MALFORMED. */
static int32_t read_optional_int(reader *r, const char *relative, int32_t *value) {
    int32_t status = read_relative(r, relative);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) {
        affinity_clear_errno();
        *value = -1;
        return LANEHOST_AFFINITY_OK;
    }
    if (status != LANEHOST_AFFINITY_OK) return status;
    status = affinity_parse_int(r->text, value);
    if (status == LANEHOST_AFFINITY_MALFORMED) {
        affinity_set_detail("%s holds \"%.64s\", not a number", r->path, quoted_text(r));
    }
    return status;
}

/*
 * A list file (CPUs or nodes). A number past the words this library handles is MALFORMED too, not
 * BUFFER_TOO_SMALL: no caller buffer is involved, and a retry with a bigger one could never succeed.
 */
static int32_t read_list(reader *r, const char *relative, uint64_t *words) {
    int32_t status = read_relative(r, relative);
    if (status != LANEHOST_AFFINITY_OK) return status;
    status = affinity_parse_cpu_list(r->text, words, AFFINITY_MAX_MASK_WORDS);
    if (status == LANEHOST_AFFINITY_BUFFER_TOO_SMALL) {
        affinity_set_detail("%s holds \"%.64s\", which names a number at or past %u, the most this library handles",
                            r->path, quoted_text(r), AFFINITY_MAX_MASK_WORDS * 64u);
        return LANEHOST_AFFINITY_MALFORMED;
    }
    if (status == LANEHOST_AFFINITY_MALFORMED) {
        affinity_set_detail("%s holds \"%.64s\", not a list such as 0-3,8", r->path, quoted_text(r));
    }
    return status;
}

/* present, possible, online: the CPU running this code is in each, so an empty one is broken. */
static int32_t read_nonempty_list(reader *r, const char *relative, uint64_t *words) {
    int32_t status = read_list(r, relative, words);
    if (status == LANEHOST_AFFINITY_OK && affinity_first_cpu(words, AFFINITY_MAX_MASK_WORDS) < 0) {
        affinity_set_detail("%s is empty, but a machine has at least one CPU", r->path);
        return LANEHOST_AFFINITY_MALFORMED;
    }
    return status;
}

static int is_set(const uint64_t *words, int32_t cpu) {
    return (words[cpu / 64] >> (cpu % 64)) & 1u;
}

/* Sets bit N for every directory `<prefix>N` in root/relative (cpuN, nodeN); N past the words is ignored. */
static int32_t scan_numbered_directories(reader *r, const char *relative, const char *prefix, uint64_t *words) {
    snprintf(r->path, sizeof r->path, "%s/%s", r->root, relative);
    DIR *directory = opendir(r->path);
    if (directory == NULL) {
        return affinity_status_from_errno(errno);
    }
    memset(words, 0, AFFINITY_MAX_MASK_WORDS * sizeof(uint64_t));
    size_t prefix_length = strlen(prefix);
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        const char *digits = entry->d_name + prefix_length;
        if (strncmp(entry->d_name, prefix, prefix_length) != 0 || !isdigit((unsigned char)*digits)) continue;
        char *end;
        unsigned long number = strtoul(digits, &end, 10);
        if (*end == '\0' && number < AFFINITY_MAX_MASK_WORDS * 64u) {
            words[number / 64] |= UINT64_C(1) << (number % 64);
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
        if (out->l3_first_cpu < 0) {
            affinity_set_detail("%s is empty, but a cache is shared by at least the CPU it belongs to", r->path);
            return LANEHOST_AFFINITY_MALFORMED;
        }
        return LANEHOST_AFFINITY_OK;
    }
    return LANEHOST_AFFINITY_OK;
}

/*
 * Each devices/system/node/nodeN/cpulist claims its online CPUs for node N. An empty cpulist (a
 * memory-only node) claims none; an offline CPU it names stays in no node.
 */
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
            if (cpus[i].online && is_set(scratch, cpus[i].cpu)) cpus[i].node = node;
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
    status = read_nonempty_list(r, "devices/system/cpu/present", present);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) status = read_nonempty_list(r, "devices/system/cpu/possible", present);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) status = scan_numbered_directories(r, "devices/system/cpu", "cpu", present);
    if (status != LANEHOST_AFFINITY_OK) goto done;
    affinity_clear_errno();

    status = read_nonempty_list(r, "devices/system/cpu/online", online);
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
        if (!out->online) continue; /* in no core, L3 domain or node, whatever files arm64 or powerpc keep for it */
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

int32_t lanehost_affinity_numa_nodes(const char *sysfs_root, uint64_t *words, uint32_t word_count, uint32_t *words_needed) {
    affinity_clear_errno();
    if (words_needed == NULL || (words == NULL && word_count > 0)) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    *words_needed = 0;
#if !defined(__linux__)
    if (sysfs_root == NULL) return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
    reader *r = malloc(sizeof(reader));
    uint64_t *nodes = calloc(AFFINITY_MAX_MASK_WORDS, sizeof(uint64_t));
    int32_t status = LANEHOST_AFFINITY_OK;
    if (r == NULL || nodes == NULL) {
        status = LANEHOST_AFFINITY_OUT_OF_MEMORY;
        goto done;
    }
    r->root = sysfs_root != NULL ? sysfs_root : "/sys";
    status = read_list(r, "devices/system/node/online", nodes);
    if (status == LANEHOST_AFFINITY_NOT_FOUND) {
        affinity_clear_errno();
        status = scan_numbered_directories(r, "devices/system/node", "node", nodes);
        if (status == LANEHOST_AFFINITY_NOT_FOUND) {
            affinity_clear_errno(); /* a kernel without NUMA: no nodes, and that is an answer */
            status = LANEHOST_AFFINITY_OK;
        }
    }
    if (status != LANEHOST_AFFINITY_OK) goto done;
    uint32_t needed = 0;
    for (uint32_t w = 0; w < AFFINITY_MAX_MASK_WORDS; w++) {
        if (nodes[w] != 0) needed = w + 1u;
    }
    *words_needed = needed;
    if (needed > word_count) {
        status = LANEHOST_AFFINITY_BUFFER_TOO_SMALL;
        goto done;
    }
    if (word_count > 0) {
        memset(words, 0, (size_t)word_count * sizeof(uint64_t));
        memcpy(words, nodes, (size_t)needed * sizeof(uint64_t));
    }

done:
    free(r);
    free(nodes);
    return status;
}
