package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The topology of this machine against /sys read directly, and of fixture trees shaped like bigger ones. */
class TopologyTest {
    private static final Path CPU = Path.of("/sys/devices/system/cpu");
    private final Affinity affinity = Affinity.system();

    @Test
    void thisMachinesTopologyMatchesSysfs() throws IOException {
        Fixtures.assumeProcAndSys();
        Topology topology = affinity.topology();
        assertTrue(topology.available(), topology.toString());
        assertEquals(CpuSet.parse(Fixtures.read(CPU.resolve("present"))).toArray().length, topology.cpus().size());
        assertEquals(CpuSet.parse(Fixtures.read(CPU.resolve("online"))), topology.onlineCpus());
        assertEquals(Fixtures.processAllowed(), topology.allowed());
        for (Topology.LogicalCpu cpu : topology.cpus()) {
            Path dir = CPU.resolve("cpu" + cpu.cpu());
            if (!cpu.online()) {
                continue;
            }
            assertEquals(Integer.parseInt(Fixtures.read(dir.resolve("topology/core_id"))), cpu.coreId());
            assertEquals(Integer.parseInt(Fixtures.read(dir.resolve("topology/physical_package_id"))), cpu.packageId());
            Path l3 = level3(dir);
            if (l3 != null) {
                CpuSet sharing = CpuSet.parse(Fixtures.read(l3.resolve("shared_cpu_list")));
                assertEquals(sharing.first(), cpu.l3FirstCpu());
                assertTrue(topology.l3Domains().stream().anyMatch(d -> d.cpus().equals(sharing)), topology.toString());
            }
        }
        Path nodes = Path.of("/sys/devices/system/node");
        if (Files.isRegularFile(nodes.resolve("online"))) {
            CpuSet online = CpuSet.parse(Fixtures.read(nodes.resolve("online")));
            assertEquals(online, CpuSet.of(topology.numaNodes().stream().mapToInt(Topology.NumaNode::id).toArray()), topology.toString());
            for (Topology.NumaNode node : topology.numaNodes()) {
                CpuSet listed = CpuSet.parse(Fixtures.read(nodes.resolve("node" + node.id() + "/cpulist")));
                assertEquals(listed.intersection(topology.onlineCpus()), node.cpus(), "node " + node.id());
            }
        } else {
            assertTrue(topology.numaNodes().isEmpty(), topology.toString());
        }
    }

    @Test
    void twoSocketFixtureHasTwoNodesFourL3DomainsAndEightCores() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("two-sockets"), CpuSet.parse("0-15"));
        assertTrue(topology.available(), topology.toString());
        assertEquals(16, topology.cpus().size());
        assertEquals(8, topology.cores().size());
        assertEquals(new Topology.Core(0, 1, CpuSet.of(1, 9)), topology.cores().get(1));
        assertEquals(new Topology.Core(1, 0, CpuSet.of(4, 12)), topology.cores().get(4)); // core_id restarts per package
        assertEquals(List.of(
                new Topology.CacheDomain(0, CpuSet.parse("0-1,8-9"), 0),
                new Topology.CacheDomain(1, CpuSet.parse("2-3,10-11"), 0),
                new Topology.CacheDomain(2, CpuSet.parse("4-5,12-13"), 1),
                new Topology.CacheDomain(3, CpuSet.parse("6-7,14-15"), 1)), topology.l3Domains());
        assertEquals(List.of(new Topology.NumaNode(0, CpuSet.parse("0-3,8-11")), new Topology.NumaNode(1, CpuSet.parse("4-7,12-15"))),
                topology.numaNodes());
    }

    @Test
    void offlineCpuAndAKernelWithoutNumaAreReportedNotGuessed() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("offline-no-numa"), CpuSet.parse("0-2"));
        assertEquals(4, topology.cpus().size());
        assertEquals(CpuSet.parse("0-2"), topology.onlineCpus());
        assertFalse(topology.cpus().get(3).online());
        assertEquals(3, topology.cores().size());
        assertEquals(List.of(new Topology.CacheDomain(-1, CpuSet.parse("0-2"), -1)), topology.l3Domains());
        assertTrue(topology.numaNodes().isEmpty());
        assertTrue(topology.toString().contains("NUMA: not described"), topology.toString());
    }

    @Test
    void memoryOnlyNodeIsListedWithNoCpus() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("memory-only-node"), CpuSet.parse("0-3"));
        assertTrue(topology.available(), topology.toString());
        assertEquals(List.of(new Topology.NumaNode(0, CpuSet.parse("0-3")), new Topology.NumaNode(1, CpuSet.empty())), topology.numaNodes());
        assertEquals(List.of(new Topology.CacheDomain(0, CpuSet.parse("0-3"), 0)), topology.l3Domains());
        assertEquals(4, topology.cores().size());
        assertTrue(topology.toString().contains("  node 1: no CPUs (memory only)\n"), topology.toString());
    }

    @Test
    void placementAgainstAMemoryOnlyNodeWarnsAndNeverDividesByItsCpus() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("memory-only-node"), CpuSet.parse("0-3"));
        TopologyDeclaration declared = TopologyDeclaration.builder()
                .node(0, node -> node.l3("near", "0..2"))
                .node(1, node -> node.l3("far", "2..4"))
                .build();
        assertEquals(List.of("node 1 declares core(s) 2-3 that are on another NUMA node here (node 1 has memory but no CPUs)"),
                declared.checkAgainst(topology));
        TopologyDeclaration memoryOnly = TopologyDeclaration.builder().node(0, node -> node.l3("near", "0..4")).node(1, node -> { }).build();
        assertEquals(List.of(), memoryOnly.checkAgainst(topology));
        PlacementConfig placement = PlacementConfig.parse("workers: pinned(node = 1, replicas = 3)");
        placement.validate(memoryOnly, topology);
        List<ThreadPlan> threads = placement.resolve(memoryOnly);
        assertEquals(3, threads.size());
        for (ThreadPlan thread : threads) {
            assertTrue(thread.cpus().isEmpty(), thread.toString()); // nothing to pin to; memory still goes to node 1
            assertEquals(1, thread.memoryNode().orElseThrow());
        }
    }

    @Test
    void offlineCpuNamedByItsNodeJoinsNoCoreL3OrNode() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("offline-listed"), CpuSet.parse("0-1,3"));
        assertTrue(topology.available(), topology.toString());
        assertEquals(new Topology.LogicalCpu(2, false, -1, -1, -1, -1, -1), topology.cpus().get(2));
        assertEquals(CpuSet.parse("0-1,3"), topology.onlineCpus());
        assertEquals(List.of(new Topology.Core(0, 0, CpuSet.of(0)), new Topology.Core(0, 1, CpuSet.of(1)), new Topology.Core(0, 3, CpuSet.of(3))),
                topology.cores());
        assertEquals(List.of(new Topology.CacheDomain(0, CpuSet.parse("0-1,3"), 0)), topology.l3Domains());
        assertEquals(List.of(new Topology.NumaNode(0, CpuSet.parse("0-1,3"))), topology.numaNodes());
    }

    @Test
    void offlineCpuDescribedInCodeJoinsNothingEither() {
        Topology topology = Topology.of("code", List.of(
                new Topology.LogicalCpu(0, true, 0, 0, 0, 0, 0),
                new Topology.LogicalCpu(1, false, 0, 0, 0, 0, 0)), CpuSet.of(0));
        assertEquals(List.of(new Topology.Core(0, 0, CpuSet.of(0))), topology.cores());
        assertEquals(List.of(new Topology.CacheDomain(0, CpuSet.of(0), 0)), topology.l3Domains());
        assertEquals(List.of(new Topology.NumaNode(0, CpuSet.of(0))), topology.numaNodes());
    }

    @Test
    void emptyPresentListIsMalformedNamingTheFile() {
        Path root = Fixtures.SYSFS.resolve("empty-present");
        Topology topology = affinity.topology(root, CpuSet.empty());
        assertFalse(topology.available());
        assertEquals("reading " + root + " failed: a sysfs file does not hold what it should: " + root
                + "/devices/system/cpu/present is empty, but a machine has at least one CPU", topology.unavailableReason());
    }

    @Test
    void cpuPastTheSupportedLimitIsMalformedNamingTheFileNotAShortBuffer() {
        Path root = Fixtures.SYSFS.resolve("cpu-past-limit");
        Topology topology = affinity.topology(root, CpuSet.empty());
        assertFalse(topology.available());
        assertEquals("reading " + root + " failed: a sysfs file does not hold what it should: " + root
                + "/devices/system/cpu/present holds \"0-1,70000\", which names a number at or past 65536, the most this library handles",
                topology.unavailableReason());
    }

    @Test
    void malformedSysfsGivesAnUnavailableTopologyWithTheReason() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("malformed"), CpuSet.empty());
        assertFalse(topology.available());
        assertTrue(topology.unavailableReason().contains("does not hold what it should: " + Fixtures.SYSFS.resolve("malformed")
                + "/devices/system/cpu/cpu0/topology/core_id holds \"zero\", not a number"), topology.unavailableReason());
        Topology missing = affinity.topology(Fixtures.SYSFS.resolve("no-such-tree"), CpuSet.empty());
        assertTrue(missing.unavailableReason().contains("does not exist"), missing.unavailableReason());
    }

    private static Path level3(Path cpuDir) throws IOException {
        for (int index = 0; Files.isDirectory(cpuDir.resolve("cache/index" + index)); index++) {
            Path cache = cpuDir.resolve("cache/index" + index);
            if (Fixtures.read(cache.resolve("level")).equals("3") && !Fixtures.read(cache.resolve("type")).equals("Instruction")) {
                return cache;
            }
        }
        return null;
    }
}
