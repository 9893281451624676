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
        if (Files.isDirectory(nodes)) {
            try (Stream<Path> entries = Files.list(nodes)) {
                List<Path> nodeDirs = entries.filter(p -> p.getFileName().toString().matches("node\\d+")).toList();
                long withCpus = nodeDirs.stream().filter(p -> !Fixtures.read(p.resolve("cpulist")).isEmpty()).count();
                assertEquals(withCpus, topology.numaNodes().size());
                for (Path node : nodeDirs) {
                    int id = Integer.parseInt(node.getFileName().toString().substring(4));
                    CpuSet cpus = CpuSet.parse(Fixtures.read(node.resolve("cpulist")));
                    if (!cpus.isEmpty()) {
                        assertEquals(cpus, topology.numaNode(id).orElseThrow().cpus());
                    }
                }
            }
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
    void malformedSysfsGivesAnUnavailableTopologyWithTheReason() {
        Topology topology = affinity.topology(Fixtures.SYSFS.resolve("malformed"), CpuSet.empty());
        assertFalse(topology.available());
        assertTrue(topology.unavailableReason().contains("does not hold what it should"), topology.unavailableReason());
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
