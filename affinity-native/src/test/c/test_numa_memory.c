/*
 * test_numa_memory.c - page size, binding a range to a node with mbind, asking a page's node.
 * Binding goes to the first online node (node 0 on a kernel without NUMA, as the kernel itself counts);
 * nodes that are not online must be refused by name.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "affinity_internal.h"
#include "check.h"

static int64_t page;

static void pageSizeIsTheSystems(void) {
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_page_size(&page));
    CHECK_EQ(sysconf(_SC_PAGESIZE), page);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_page_size(NULL));
}

/* The lowest online NUMA node, or 0 where the kernel describes none. */
static int32_t first_online_node(void) {
    uint64_t nodes[16];
    uint32_t needed = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_numa_nodes(NULL, nodes, 16, &needed));
    int32_t first = affinity_first_cpu(nodes, 16);
    return first < 0 ? 0 : first;
}

static void bindingToAnOnlineNodePlacesThePageThere(void) {
    int32_t target = first_online_node();
    char *memory = mmap(NULL, (size_t)page * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(memory != MAP_FAILED);
    int32_t capable = lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_NUMA_BINDING);
    int32_t status = lanehost_affinity_bind_memory(memory, (uint64_t)page * 4, target, 0);
    CHECK_EQ(capable, status); /* where mbind is filtered, binding says so the way the probe did */
    if (status != LANEHOST_AFFINITY_OK) {
        printf("     skipped the placement check: mbind is refused here (%s)\n", lanehost_affinity_status_text(status));
    } else {
        memset(memory, 1, (size_t)page * 4);
        int32_t node = -1;
        CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_memory_node(memory + page, &node));
        CHECK_EQ(target, node);
        CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_bind_memory(memory, (uint64_t)page,
                                                                      target, LANEHOST_AFFINITY_BIND_STRICT | LANEHOST_AFFINITY_BIND_MOVE));
    }
    munmap(memory, (size_t)page * 4);
}

static void badArgumentsNeverReachTheKernel(void) {
    char *memory = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_bind_memory(NULL, (uint64_t)page, 0, 0));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_bind_memory(memory, 0, 0, 0));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_bind_memory(memory, (uint64_t)page, -1, 0));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_bind_memory(memory, (uint64_t)page, 0, 8));
    CHECK_EQ(LANEHOST_AFFINITY_MISALIGNED, lanehost_affinity_bind_memory(memory + 8, (uint64_t)page, 0, 0));
    CHECK_EQ(LANEHOST_AFFINITY_UNKNOWN_NODE, lanehost_affinity_bind_memory(memory, (uint64_t)page, 5000, 0));
    CHECK_EQ(0, lanehost_affinity_last_errno());
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_memory_node(memory, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_memory_node(NULL, &(int32_t){0}));
    munmap(memory, (size_t)page * 2);
}

static void nodeThatIsNotOnlineIsUnknown(void) {
    if (lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_NUMA_BINDING) != LANEHOST_AFFINITY_OK) return;
    char *memory = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* One node here; on a bigger box node 1023 is still far beyond any online node. */
    CHECK_EQ(LANEHOST_AFFINITY_UNKNOWN_NODE, lanehost_affinity_bind_memory(memory, (uint64_t)page, 1023, 0));
    munmap(memory, (size_t)page);
}

static void unmappedMemoryIsNotMapped(void) {
    if (lanehost_affinity_probe(LANEHOST_AFFINITY_CAP_NUMA_BINDING) != LANEHOST_AFFINITY_OK) return;
    char *memory = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(memory, (size_t)page);
    CHECK_EQ(LANEHOST_AFFINITY_NOT_MAPPED, lanehost_affinity_bind_memory(memory, (uint64_t)page, 0, 0));
    int32_t node = -1;
    CHECK_EQ(LANEHOST_AFFINITY_NOT_MAPPED, lanehost_affinity_memory_node(memory, &node));
}

int main(void) {
    RUN_TEST(pageSizeIsTheSystems);
    RUN_TEST(bindingToAnOnlineNodePlacesThePageThere);
    RUN_TEST(badArgumentsNeverReachTheKernel);
    RUN_TEST(nodeThatIsNotOnlineIsUnknown);
    RUN_TEST(unmappedMemoryIsNotMapped);
    return CHECK_EXIT();
}
