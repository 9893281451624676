/*
 * numa_memory.c - binding memory ranges to a NUMA node with mbind(2), called through syscall(2).
 *
 * Why no libnuma: the two calls we need (mbind, get_mempolicy) are plain system calls, libnuma is
 * not installed on most container images, and a missing libnuma.so would make this whole library
 * fail to load - losing affinity too, for the sake of two wrappers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "affinity_internal.h"

#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* From <linux/mempolicy.h>, spelled out so the build needs no kernel headers. */
#define AFFINITY_MPOL_PREFERRED 1
#define AFFINITY_MPOL_BIND 2
#define AFFINITY_MPOL_MF_MOVE (1u << 1)
#define AFFINITY_MPOL_F_NODE (1u << 0)
#define AFFINITY_MPOL_F_ADDR (1u << 1)

/* The node mask we hand the kernel: 1024 nodes, the kernel's own MAX_NUMNODES ceiling (NODES_SHIFT 10). */
#define NODE_MASK_BITS 1024u

int32_t lanehost_affinity_page_size(int64_t *page_size) {
    affinity_clear_errno();
    if (page_size == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    long size = sysconf(_SC_PAGESIZE);
    if (size <= 0) {
        return affinity_status_from_errno(errno);
    }
    *page_size = size;
    return LANEHOST_AFFINITY_OK;
}

#if defined(__linux__)
/* A node is bindable if devices/system/node/online lists it; without that file, the kernel decides. */
static int32_t check_node_online(int32_t node) {
    char text[1024];
    uint64_t words[NODE_MASK_BITS / 64];
    if (affinity_read_text("/sys/devices/system/node/online", text, sizeof text) != LANEHOST_AFFINITY_OK) {
        affinity_clear_errno();
        return LANEHOST_AFFINITY_OK;
    }
    if (affinity_parse_cpu_list(text, words, NODE_MASK_BITS / 64) != LANEHOST_AFFINITY_OK) {
        return LANEHOST_AFFINITY_OK;
    }
    return (words[node / 64] >> (node % 64)) & 1u ? LANEHOST_AFFINITY_OK : LANEHOST_AFFINITY_UNKNOWN_NODE;
}
#endif

int32_t lanehost_affinity_bind_memory(void *address, uint64_t length, int32_t node, uint32_t flags) {
    affinity_clear_errno();
    if (address == NULL || length == 0 || node < 0 || (flags & ~(LANEHOST_AFFINITY_BIND_STRICT | LANEHOST_AFFINITY_BIND_MOVE)) != 0) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
    if ((uint32_t)node >= NODE_MASK_BITS) {
        return LANEHOST_AFFINITY_UNKNOWN_NODE;
    }
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0 && ((uintptr_t)address % (uintptr_t)page) != 0) {
        return LANEHOST_AFFINITY_MISALIGNED;
    }
#if defined(__linux__) && defined(SYS_mbind)
    int32_t status = check_node_online(node);
    if (status != LANEHOST_AFFINITY_OK) {
        return status;
    }
    unsigned long mask[NODE_MASK_BITS / (8 * sizeof(unsigned long))];
    memset(mask, 0, sizeof mask);
    mask[(uint32_t)node / (8 * sizeof(unsigned long))] = 1UL << ((uint32_t)node % (8 * sizeof(unsigned long)));
    int mode = (flags & LANEHOST_AFFINITY_BIND_STRICT) ? AFFINITY_MPOL_BIND : AFFINITY_MPOL_PREFERRED;
    unsigned int mbind_flags = (flags & LANEHOST_AFFINITY_BIND_MOVE) ? AFFINITY_MPOL_MF_MOVE : 0u;
    /* maxnode + 1: the kernel reads one bit fewer than it is told (a historical off-by-one kept for ABI). */
    if (syscall(SYS_mbind, address, (unsigned long)length, mode, mask, (unsigned long)NODE_MASK_BITS + 1, mbind_flags) != 0) {
        int err = errno;
        status = affinity_status_from_errno(err);
        /* EINVAL past our own checks means the node is outside this cpuset's mems or has no memory. */
        return err == EINVAL ? LANEHOST_AFFINITY_UNKNOWN_NODE : status;
    }
    return LANEHOST_AFFINITY_OK;
#else
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}

int32_t lanehost_affinity_memory_node(void *address, int32_t *node) {
    affinity_clear_errno();
    if (address == NULL || node == NULL) {
        return LANEHOST_AFFINITY_INVALID_ARGUMENT;
    }
#if defined(__linux__) && defined(SYS_get_mempolicy)
    /* No touch here: an unmapped address must come back as NOT_MAPPED (EFAULT), not as a crash. */
    int value = -1;
    if (syscall(SYS_get_mempolicy, &value, NULL, 0UL, address, (unsigned long)(AFFINITY_MPOL_F_NODE | AFFINITY_MPOL_F_ADDR)) != 0) {
        return affinity_status_from_errno(errno);
    }
    *node = value;
    return LANEHOST_AFFINITY_OK;
#else
    return LANEHOST_AFFINITY_UNSUPPORTED;
#endif
}
