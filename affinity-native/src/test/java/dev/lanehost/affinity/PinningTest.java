package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Pinning on this Linux machine, each check against the kernel's own report in
 * {@code /proc/self/task/<tid>/status}. Every pin happens on a fresh platform thread, so the test
 * JVM's own threads keep their masks. Tests that compare with the kernel skip where /proc is missing;
 * tests that pin skip with fewer than two allowed CPUs, where a pin cannot be told from none.
 */
class PinningTest {
    private static final ExecutorService FRESH_THREADS = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory());
    private final Affinity affinity = Affinity.system();

    @AfterAll
    static void stopThreads() {
        FRESH_THREADS.close();
    }

    @Test
    void capabilitiesOnThisLinuxMachineSayYesToHardAffinity() {
        assumeTrue(Set.of("linux-x86_64", "linux-aarch64").contains(NativeLibraryLoader.platform()),
                "needs a platform the library is built for (linux-x86_64, linux-aarch64), not " + NativeLibraryLoader.platform());
        Capabilities capabilities = affinity.capabilities();
        assertEquals(NativeLibraryLoader.platform(), capabilities.platform(), "the library reports the platform it was bundled for");
        assertTrue(capabilities.library().available(), capabilities.toString());
        assertTrue(capabilities.hardAffinity().available(), capabilities.toString());
        assertTrue(capabilities.currentCpu().available(), capabilities.toString());
        assertTrue(capabilities.topology().available(), capabilities.toString());
    }

    @Test
    void allowedCpusAreTheKernelsNotZeroToNproc() {
        Fixtures.assumeProcAndSys();
        assertEquals(Fixtures.processAllowed(), affinity.allowedCpus().orElseThrow());
    }

    @Test
    void pinnedThreadReadsBackTheSameMaskFromProc() throws Exception {
        for (int cpu : Fixtures.assumeAllowedCpus(affinity, 2).toArray()) {
            CpuSet one = CpuSet.of(cpu);
            onFreshThread(() -> {
                AffinityResult result = affinity.pinCurrentThread(one);
                assertEquals(AffinityResult.Outcome.APPLIED, result.outcome(), result.toString());
                assertEquals(one, result.applied());
                assertEquals(one, Fixtures.kernelMask(affinity.currentThreadId().orElseThrow()));
                assertEquals(one, affinity.currentThreadMask().orElseThrow());
                assertEquals(cpu, affinity.currentCpu().orElseThrow());
                return null;
            });
        }
    }

    @Test
    void pinningOutsideTheAllowedSetIsRefusedNamingTheCpu() throws Exception {
        Fixtures.assumeProcAndSys();
        CpuSet allowed = affinity.allowedCpus().orElseThrow();
        int outside = allowed.stream().max().orElseThrow() + 1;
        onFreshThread(() -> {
            long tid = affinity.currentThreadId().orElseThrow();
            CpuSet before = Fixtures.kernelMask(tid);
            // Next to an allowed CPU: the kernel alone would pin to the allowed one and report success.
            AffinityResult result = affinity.pinCurrentThread(CpuSet.of(allowed.first(), outside));
            assertEquals(AffinityResult.Outcome.FELL_BACK, result.outcome());
            assertEquals(AffinityStatus.CPU_NOT_ALLOWED, result.status());
            assertEquals("CPU " + outside + " is not in this process's allowed set " + allowed + " (cgroup cpuset or taskset)", result.reason());
            assertEquals(before, Fixtures.kernelMask(tid));
            return null;
        });
    }

    @Test
    void emptySetFallsBackWithoutTouchingTheThread() throws Exception {
        onFreshThread(() -> {
            AffinityResult result = affinity.pinCurrentThread(CpuSet.empty());
            assertEquals(AffinityStatus.EMPTY_SET, result.status());
            assertEquals(AffinityResult.Outcome.FELL_BACK, result.outcome());
            return null;
        });
    }

    static <T> T onFreshThread(Callable<T> work) throws Exception {
        try {
            return FRESH_THREADS.submit(work).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // an assertion failure on the pinned thread fails the test with its own message
            }
            throw e;
        }
    }
}
