package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AffinityPolicyTest {
    /** A 16-CPU box where a cpuset lets this process use only CPUs 2-5 and 12. */
    private static final Topology CONTAINED = Affinity.system().topology(Fixtures.SYSFS.resolve("two-sockets"), CpuSet.parse("2-5,12"));

    @Test
    void bestEffortIsCompactOverTheAllowedSetAndWraps() {
        List<CpuSet> chosen = new ArrayList<>();
        for (int worker = 0; worker < 7; worker++) {
            chosen.add(((AffinityPolicy.Choice.Pin) AffinityPolicy.BEST_EFFORT.choose(worker, CONTAINED)).cpus());
        }
        assertEquals(List.of(CpuSet.of(2), CpuSet.of(3), CpuSet.of(4), CpuSet.of(5), CpuSet.of(12), CpuSet.of(2), CpuSet.of(3)), chosen);
    }

    @Test
    void fixedNamesAnUnknownCpu() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> AffinityPolicy.fixed(2, 3, 40).validate(CONTAINED));
        assertEquals("FIXED gives worker 2 CPU 40, which this machine does not have (online CPUs: 0-15)", thrown.getMessage());
    }

    @Test
    void fixedNamesADisallowedCpu() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> AffinityPolicy.fixed(2, 7).validate(CONTAINED));
        assertEquals("FIXED gives worker 1 CPU 7, which this process may not use (allowed: 2-5,12; a cgroup cpuset or taskset limits it)",
                thrown.getMessage());
        AffinityPolicy.fixed(2, 12).validate(CONTAINED);
    }

    @Test
    void fixedRefusesNoCpusAndNegativeOnes() {
        assertThrows(IllegalArgumentException.class, AffinityPolicy::fixed);
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> AffinityPolicy.fixed(0, -1));
        assertEquals("FIXED lists CPU -1 for worker 1; CPUs are numbered from 0", negative.getMessage());
    }

    @Test
    void fixedWorkerPastTheListIsNotPinned() {
        AffinityResult result = AffinityPolicy.fixed(2).applyToCurrentThread(1, CONTAINED, Affinity.unavailable("unused"));
        assertEquals(AffinityResult.Outcome.FELL_BACK, result.outcome());
        assertEquals("FIXED lists 1 CPUs, none for worker 1", result.reason());
    }

    @Test
    void noneRequestsNothing() {
        assertEquals(AffinityResult.Outcome.NOT_REQUESTED,
                AffinityPolicy.NONE.applyToCurrentThread(0, CONTAINED, Affinity.system()).outcome());
    }

    @Test
    void everyPolicyFallsBackCleanlyWithoutTheLibrary() {
        Affinity absent = Affinity.unavailable("no liblanehost_affinity here");
        Topology topology = absent.topology();
        assertEquals("liblanehost_affinity is not loaded: no liblanehost_affinity here", topology.unavailableReason());
        AffinityResult best = AffinityPolicy.BEST_EFFORT.applyToCurrentThread(0, topology, absent);
        assertEquals(AffinityResult.Outcome.FELL_BACK, best.outcome());
        assertEquals(topology.unavailableReason(), best.reason());
        AffinityResult fixed = AffinityPolicy.fixed(0).applyToCurrentThread(0, topology, absent);
        assertEquals(AffinityResult.Outcome.FELL_BACK, fixed.outcome());
        assertEquals(AffinityStatus.UNSUPPORTED, fixed.status());
        assertEquals("liblanehost_affinity is not loaded: no liblanehost_affinity here", fixed.reason());
        AffinityPolicy.fixed(99).validate(topology); // nothing to validate against: applying reports it instead
        assertTrue(absent.capabilities().hardAffinity().reason().contains("no liblanehost_affinity here"));
    }

    @Test
    void bestEffortPinsARealThreadToAnAllowedCpu() throws Exception {
        Affinity affinity = Affinity.system();
        Fixtures.assumeAllowedCpus(affinity, 2); // worker 1 then gets the second CPU, not the only one it runs on anyway
        Topology topology = affinity.topology();
        AffinityResult result = PinningTest.onFreshThread(() -> AffinityPolicy.BEST_EFFORT.applyToCurrentThread(1, topology, affinity));
        assertEquals(AffinityResult.Outcome.APPLIED, result.outcome(), result.toString());
        assertEquals(CpuSet.of(topology.allowed().get(1 % topology.allowed().size())), result.applied());
    }

    /**
     * The library really absent: a child JVM whose loader is pointed at an empty directory. Nothing throws
     * at class init or later; every answer is "unsupported" with the loader's reason.
     */
    @Test
    void childJvmWithoutTheLibraryDegradesWithReasons(@TempDir Path empty) throws IOException, InterruptedException {
        Path output = empty.resolve("output.txt");
        ChildJvm.Finished child = ChildJvm.run(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED",
                "-Dlanehost.native.path=" + empty, "-cp", ChildJvm.classPath(), LibraryAbsentProgram.class.getName()), output);
        String printed = child.printed();
        assertEquals(0, child.exitCode(), printed);
        assertTrue(printed.contains("available=false"), printed);
        assertTrue(printed.contains("BEST_EFFORT: not pinned: liblanehost_affinity is not loaded: lanehost could not load the native library 'lanehost_affinity'"), printed);
        assertTrue(printed.contains("FIXED: not pinned to CPUs 0: liblanehost_affinity is not loaded"), printed);
        assertTrue(printed.contains("NONE: no affinity requested"), printed);
        assertTrue(printed.contains("PRIORITY: SCHED_FIFO priority 10 (else nice 5) fell back: liblanehost_affinity is not loaded: "
                + "lanehost could not load the native library 'lanehost_affinity'"), printed);
        assertTrue(printed.contains("(neither SCHED_FIFO nor nice 5 was set) (now unknown)"), printed);
        assertTrue(printed.contains("hard CPU affinity: no (liblanehost_affinity is not loaded"), printed);
        assertTrue(printed.contains("memory: UNSUPPORTED"), printed);
        assertTrue(printed.contains("-Dlanehost.native.path is set, so no other place was searched"), printed);
    }
}
