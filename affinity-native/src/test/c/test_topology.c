/* test_topology.c - the sysfs reader on fixture trees shaped like machines this box is not, and on /sys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity_internal.h"
#include "check.h"

static lanehost_affinity_cpu cpus[64];

static void twoSocketsHasTwoNodesFourL3DomainsAndSmtSiblings(void) {
    uint32_t count = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(AFFINITY_FIXTURES "/two-sockets", cpus, 64, &count));
    CHECK_EQ(16, count);
    for (int32_t cpu = 0; cpu < 16; cpu++) {
        int32_t first = cpu % 8, package = first / 4, core = first % 4;
        lanehost_affinity_cpu *c = &cpus[cpu];
        CHECK_EQ(cpu, c->cpu);
        CHECK_EQ(1, c->online);
        CHECK_EQ(core, c->core_id);
        CHECK_EQ(package, c->package_id);
        CHECK_EQ(package * 2 + core / 2, c->l3_id);
        CHECK_EQ(package * 4 + (core / 2) * 2, c->l3_first_cpu);
        CHECK_EQ(package, c->node);
    }
    /* The SMT sibling of CPU 1 is CPU 9: same package, core and L3 domain. */
    CHECK_EQ(cpus[1].core_id, cpus[9].core_id);
    CHECK_EQ(cpus[1].l3_first_cpu, cpus[9].l3_first_cpu);
}

static void offlineCpuAndMissingNumaAreUnknownNotGuessed(void) {
    uint32_t count = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(AFFINITY_FIXTURES "/offline-no-numa", cpus, 64, &count));
    CHECK_EQ(4, count);
    for (int32_t cpu = 0; cpu < 3; cpu++) {
        CHECK_EQ(1, cpus[cpu].online);
        CHECK_EQ(cpu, cpus[cpu].core_id);
        CHECK_EQ(0, cpus[cpu].package_id);
        CHECK_EQ(-1, cpus[cpu].l3_id); /* no id file */
        CHECK_EQ(0, cpus[cpu].l3_first_cpu);
        CHECK_EQ(-1, cpus[cpu].node);
    }
    CHECK_EQ(3, cpus[3].cpu);
    CHECK_EQ(0, cpus[3].online);
    CHECK_EQ(-1, cpus[3].core_id);
    CHECK_EQ(-1, cpus[3].package_id);
    CHECK_EQ(-1, cpus[3].l3_first_cpu);
}

static void garbageInAFileIsMalformedNamingTheFile(void) {
    uint32_t count = 7;
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, lanehost_affinity_topology(AFFINITY_FIXTURES "/malformed", cpus, 64, &count));
    CHECK_EQ(0, count);
    CHECK(strcmp(AFFINITY_FIXTURES "/malformed/devices/system/cpu/cpu0/topology/core_id holds \"zero\", not a number",
                 lanehost_affinity_last_detail()) == 0);
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(AFFINITY_FIXTURES "/two-sockets", cpus, 64, &count));
    CHECK(strcmp("", lanehost_affinity_last_detail()) == 0); /* the next call forgets it */
}

static void emptyPresentListIsMalformedNamingTheFile(void) {
    uint32_t count = 7;
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, lanehost_affinity_topology(AFFINITY_FIXTURES "/empty-present", cpus, 64, &count));
    CHECK_EQ(0, count);
    CHECK(strcmp(AFFINITY_FIXTURES "/empty-present/devices/system/cpu/present is empty, but a machine has at least one CPU",
                 lanehost_affinity_last_detail()) == 0);
}

static void cpuPastTheSupportedLimitIsMalformedNotAShortBuffer(void) {
    uint32_t count = 7;
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, lanehost_affinity_topology(AFFINITY_FIXTURES "/cpu-past-limit", cpus, 64, &count));
    CHECK_EQ(0, count);
    CHECK(strcmp(AFFINITY_FIXTURES "/cpu-past-limit/devices/system/cpu/present holds \"0-1,70000\", which names a number at or"
                 " past 65536, the most this library handles", lanehost_affinity_last_detail()) == 0);
}

static void memoryOnlyNodeIsOnlineWithNoCpus(void) {
    uint32_t count = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(AFFINITY_FIXTURES "/memory-only-node", cpus, 64, &count));
    CHECK_EQ(4, count);
    for (uint32_t i = 0; i < count; i++) CHECK_EQ(0, cpus[i].node);
    uint64_t nodes[2] = {99, 99};
    uint32_t needed = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_numa_nodes(AFFINITY_FIXTURES "/memory-only-node", nodes, 2, &needed));
    CHECK_EQ(1, needed);
    CHECK_EQ(0x3, nodes[0]); /* node 1 too, though no CPU names it */
    CHECK_EQ(0, nodes[1]);
}

static void numaNodesOfTheOtherFixtures(void) {
    uint64_t nodes[1] = {99};
    uint32_t needed = 7;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_numa_nodes(AFFINITY_FIXTURES "/two-sockets", nodes, 1, &needed));
    CHECK_EQ(1, needed);
    CHECK_EQ(0x3, nodes[0]);
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_numa_nodes(AFFINITY_FIXTURES "/offline-no-numa", nodes, 1, &needed));
    CHECK_EQ(0, needed); /* a kernel without NUMA: no nodes, not an error */
    CHECK_EQ(0, nodes[0]);
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_numa_nodes(AFFINITY_FIXTURES "/two-sockets", NULL, 0, &needed));
    CHECK_EQ(1, needed);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_numa_nodes(NULL, nodes, 1, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_numa_nodes(NULL, NULL, 1, &needed));
}

static void offlineCpuNamedByItsNodeJoinsNoCoreL3OrNode(void) {
    uint32_t count = 0;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(AFFINITY_FIXTURES "/offline-listed", cpus, 64, &count));
    CHECK_EQ(4, count);
    for (int32_t cpu = 0; cpu < 4; cpu++) {
        lanehost_affinity_cpu *c = &cpus[cpu];
        CHECK_EQ(cpu, c->cpu);
        if (cpu == 2) {
            CHECK_EQ(0, c->online);
            CHECK_EQ(-1, c->core_id); /* its files say 2, 0, L3 0 and node 0: none of it is used */
            CHECK_EQ(-1, c->package_id);
            CHECK_EQ(-1, c->l3_id);
            CHECK_EQ(-1, c->l3_first_cpu);
            CHECK_EQ(-1, c->node);
        } else {
            CHECK_EQ(1, c->online);
            CHECK_EQ(cpu, c->core_id);
            CHECK_EQ(0, c->l3_first_cpu);
            CHECK_EQ(0, c->node);
        }
    }
}

static void missingRootIsNotFound(void) {
    uint32_t count = 7;
    CHECK_EQ(LANEHOST_AFFINITY_NOT_FOUND, lanehost_affinity_topology(AFFINITY_FIXTURES "/no-such-root", cpus, 64, &count));
    CHECK_EQ(0, count);
}

static void shortBufferSaysHowManyCpus(void) {
    uint32_t count = 0;
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_topology(AFFINITY_FIXTURES "/two-sockets", cpus, 15, &count));
    CHECK_EQ(16, count);
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_topology(AFFINITY_FIXTURES "/two-sockets", NULL, 0, &count));
    CHECK_EQ(16, count);
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_topology(NULL, cpus, 64, NULL));
    CHECK_EQ(LANEHOST_AFFINITY_INVALID_ARGUMENT, lanehost_affinity_topology(NULL, NULL, 4, &count));
}

static void realSysfsAgreesWithGetcpu(void) {
    uint32_t count = 0;
    /* Asked for the size first: this machine may have more CPUs than the fixtures' buffer holds. */
    CHECK_EQ(LANEHOST_AFFINITY_BUFFER_TOO_SMALL, lanehost_affinity_topology(NULL, NULL, 0, &count));
    CHECK(count >= 1);
    lanehost_affinity_cpu *machine = calloc(count, sizeof *machine);
    CHECK(machine != NULL);
    if (machine == NULL) return;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(NULL, machine, count, &count));
    CHECK_EQ(sysconf(_SC_NPROCESSORS_CONF), count);
    int32_t cpu = -1, node = -1;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_cpu(&cpu, &node));
    int seen = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (machine[i].cpu != cpu) continue;
        seen = 1;
        CHECK_EQ(1, machine[i].online);
        CHECK(machine[i].package_id >= 0);
        CHECK(machine[i].node == node || machine[i].node == -1);
    }
    CHECK(seen); /* the CPU running this test is in the list */
    free(machine);
}

int main(void) {
    RUN_TEST(twoSocketsHasTwoNodesFourL3DomainsAndSmtSiblings);
    RUN_TEST(offlineCpuAndMissingNumaAreUnknownNotGuessed);
    RUN_TEST(garbageInAFileIsMalformedNamingTheFile);
    RUN_TEST(emptyPresentListIsMalformedNamingTheFile);
    RUN_TEST(cpuPastTheSupportedLimitIsMalformedNotAShortBuffer);
    RUN_TEST(memoryOnlyNodeIsOnlineWithNoCpus);
    RUN_TEST(numaNodesOfTheOtherFixtures);
    RUN_TEST(offlineCpuNamedByItsNodeJoinsNoCoreL3OrNode);
    RUN_TEST(missingRootIsNotFound);
    RUN_TEST(shortBufferSaysHowManyCpus);
    RUN_TEST(realSysfsAgreesWithGetcpu);
    return CHECK_EXIT();
}
