/* test_topology.c - the sysfs reader on fixture trees shaped like machines this box is not, and on /sys. */
#include <stdio.h>
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

static void garbageInAFileIsMalformed(void) {
    uint32_t count = 7;
    CHECK_EQ(LANEHOST_AFFINITY_MALFORMED, lanehost_affinity_topology(AFFINITY_FIXTURES "/malformed", cpus, 64, &count));
    CHECK_EQ(0, count);
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
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_topology(NULL, cpus, 64, &count));
    CHECK(count >= 1);
    CHECK_EQ(sysconf(_SC_NPROCESSORS_CONF), count);
    int32_t cpu = -1, node = -1;
    CHECK_EQ(LANEHOST_AFFINITY_OK, lanehost_affinity_current_cpu(&cpu, &node));
    for (uint32_t i = 0; i < count; i++) {
        if (cpus[i].cpu != cpu) continue;
        CHECK_EQ(1, cpus[i].online);
        CHECK(cpus[i].package_id >= 0);
        CHECK(cpus[i].node == node || cpus[i].node == -1);
    }
}

int main(void) {
    RUN_TEST(twoSocketsHasTwoNodesFourL3DomainsAndSmtSiblings);
    RUN_TEST(offlineCpuAndMissingNumaAreUnknownNotGuessed);
    RUN_TEST(garbageInAFileIsMalformed);
    RUN_TEST(missingRootIsNotFound);
    RUN_TEST(shortBufferSaysHowManyCpus);
    RUN_TEST(realSysfsAgreesWithGetcpu);
    return CHECK_EXIT();
}
