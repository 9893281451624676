package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priority policies on real threads. Every change is made on a fresh platform thread that ends with the
 * test, so the test JVM's own threads never run real-time; the kernel's view is read from
 * {@code /proc/thread-self/stat}, independently of the library's read-back.
 */
class PriorityPolicyTest {
    private final Affinity affinity = Affinity.system();

    @Test
    void fifoTenOnAFreshThreadIsWhatTheKernelReports() throws Exception {
        assumeRealtimeAllowed();
        onThreadThatEnds(() -> {
            PriorityResult result = PriorityPolicy.realtime(SchedClass.FIFO, 10, 5).applyToCurrentThread(affinity);
            KernelView kernel = KernelView.ofThisThread();
            assertEquals(PriorityResult.Outcome.APPLIED, result.outcome(), result.toString());
            assertEquals(SchedClass.FIFO.code(), kernel.policy());
            assertEquals(10, kernel.rtPriority());
            assertEquals(Optional.of(new ThreadPriority(SchedClass.FIFO, 10, kernel.nice())), result.obtained());
            assertEquals(AffinityStatus.OK, result.status());
            return null;
        });
        assertEquals(SchedClass.OTHER.code(), KernelView.ofThisThread().policy(), "the test's own thread stays normal");
    }

    @Test
    void roundRobinIsAppliedAsRoundRobin() throws Exception {
        assumeRealtimeAllowed();
        onThreadThatEnds(() -> {
            PriorityResult result = PriorityPolicy.realtime(SchedClass.RR, 3, 0).applyToCurrentThread(affinity);
            assertEquals(PriorityResult.Outcome.APPLIED, result.outcome(), result.toString());
            assertEquals(SchedClass.RR.code(), KernelView.ofThisThread().policy());
            assertEquals(3, KernelView.ofThisThread().rtPriority());
            return null;
        });
    }

    @Test
    void aThreadStartedByARealtimeThreadStartsInTheNormalClass() throws Exception {
        assumeRealtimeAllowed();
        KernelView child = onThreadThatEnds(() -> {
            assertTrue(PriorityPolicy.realtime(SchedClass.FIFO, 10, 0).applyToCurrentThread(affinity).isApplied());
            return onThreadThatEnds(KernelView::ofThisThread);
        });
        assertEquals(SchedClass.OTHER.code(), child.policy());
        assertEquals(0, child.rtPriority());
    }

    @Test
    void niceOnAFreshThreadIsWhatTheKernelReports() throws Exception {
        onThreadThatEnds(() -> {
            PriorityResult result = PriorityPolicy.nice(7).applyToCurrentThread(affinity);
            assertEquals(PriorityResult.Outcome.APPLIED, result.outcome(), result.toString());
            assertEquals(7, KernelView.ofThisThread().nice());
            assertEquals(Optional.of(new ThreadPriority(SchedClass.OTHER, 0, 7)), result.obtained());
            return null;
        });
    }

    @Test
    void noneReportsWhatTheThreadHas() throws Exception {
        onThreadThatEnds(() -> {
            PriorityResult result = PriorityPolicy.none().applyToCurrentThread(affinity);
            KernelView kernel = KernelView.ofThisThread();
            assertEquals(PriorityResult.Outcome.NOT_REQUESTED, result.outcome());
            assertEquals(Optional.of(new ThreadPriority(SchedClass.fromCode(kernel.policy()), kernel.rtPriority(), kernel.nice())),
                    result.obtained());
            return null;
        });
    }

    @Test
    void priorityOutsideTheKernelsRangeIsRefusedByValue() {
        assumeTrue(affinity.available(), "needs liblanehost_affinity to ask the kernel for the range");
        PriorityRange fifo = affinity.priorityRange(SchedClass.FIFO).orElseThrow();
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> PriorityPolicy.realtime(SchedClass.FIFO, fifo.max() + 1, 0));
        assertEquals("SCHED_FIFO priority " + (fifo.max() + 1) + " is outside " + fifo
                + ", the range the kernel accepts (sched_get_priority_min/max)", high.getMessage());
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> PriorityPolicy.realtime(SchedClass.RR, 0, 0));
        assertEquals("SCHED_RR priority 0 is outside 1..99, the range the kernel accepts (sched_get_priority_min/max)", low.getMessage());
    }

    @Test
    void niceOutsideTheKernelsRangeAndNormalClassesAreRefusedByValue() {
        assertEquals("nice 20 is outside -20..19",
                assertThrows(IllegalArgumentException.class, () -> PriorityPolicy.nice(20)).getMessage());
        assertEquals("nice -21 is outside -20..19",
                assertThrows(IllegalArgumentException.class, () -> PriorityPolicy.nice(-21)).getMessage());
        assertEquals("fallback nice 20 is outside -20..19",
                assertThrows(IllegalArgumentException.class, () -> PriorityPolicy.realtime(SchedClass.FIFO, 10, 20)).getMessage());
        assertEquals("SCHED_OTHER is not a real-time class: give SchedClass.FIFO or SchedClass.RR (for the normal class, PriorityPolicy.nice(n))",
                assertThrows(IllegalArgumentException.class, () -> PriorityPolicy.realtime(SchedClass.OTHER, 0, 0)).getMessage());
        PriorityPolicy.nice(-20);
        PriorityPolicy.nice(19);
    }

    @Test
    void withoutTheLibraryEveryPolicyFallsBackAndSaysWhy() {
        Affinity absent = Affinity.unavailable("no liblanehost_affinity here");
        PriorityResult realtime = PriorityPolicy.realtime(SchedClass.FIFO, 10, 5).applyToCurrentThread(absent);
        assertEquals(PriorityResult.Outcome.FELL_BACK, realtime.outcome());
        assertEquals(AffinityStatus.UNSUPPORTED, realtime.status());
        assertEquals("liblanehost_affinity is not loaded: no liblanehost_affinity here; the thread keeps its scheduling"
                + " (neither SCHED_FIFO nor nice 5 was set)", realtime.reason());
        assertEquals(Optional.empty(), realtime.obtained());
        PriorityResult nice = PriorityPolicy.nice(5).applyToCurrentThread(absent);
        assertEquals(PriorityResult.Outcome.FELL_BACK, nice.outcome());
        assertEquals("liblanehost_affinity is not loaded: no liblanehost_affinity here; the thread keeps its nice value", nice.reason());
        assertEquals(PriorityResult.Outcome.NOT_REQUESTED, PriorityPolicy.none().applyToCurrentThread(absent).outcome());
        assertEquals(Optional.empty(), absent.currentThreadPriority());
        assertEquals(Optional.empty(), absent.priorityRange(SchedClass.FIFO));
    }

    /**
     * The kernel really refusing: a child JVM without CAP_SYS_NICE (dropped from its bounding set, so root
     * cannot regain it at exec) and with RLIMIT_RTPRIO 0. FIFO is refused with EPERM; the thread falls back
     * to nice 5, which the kernel reports. A negative fallback nice is refused too, and the thread keeps the nice it had.
     */
    @Test
    void kernelRefusalFallsBackToTheNiceAndSaysWhy(@TempDir Path directory) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/prlimit")),
                "needs setpriv and prlimit (util-linux) to start a JVM without CAP_SYS_NICE and with RLIMIT_RTPRIO 0");
        Path output = directory.resolve("output.txt");
        // The child must start at nice 0 (the expectations below): a build run niced starts it at nice 0 again.
        int nice = KernelView.ofThisThread().nice();
        List<String> command = new ArrayList<>();
        if (nice != 0) {
            command.addAll(List.of("/usr/bin/nice", "-n", String.valueOf(-nice)));
        }
        command.addAll(List.of("/usr/bin/prlimit", "--rtprio=0", "/usr/bin/setpriv", "--bounding-set=-sys_nice",
                "--inh-caps=-all", ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-cp", ChildJvm.classPath(),
                PriorityRefusedProgram.class.getName()));
        ChildJvm.Finished child = ChildJvm.run(command, output);
        String printed = child.printed();
        assertEquals(0, child.exitCode(), printed);
        assertTrue(printed.contains("outcome=FELL_BACK\n"), printed);
        assertTrue(printed.contains("status=PERMISSION_DENIED\n"), printed);
        assertTrue(printed.contains("reason=EPERM: no CAP_SYS_NICE and RLIMIT_RTPRIO 0; fell back to nice 5\n"), printed);
        assertTrue(printed.contains("obtained=Optional[SCHED_OTHER nice 5]\n"), printed);
        assertTrue(printed.contains("kernel: policy 0, rt_priority 0, nice 5\n"), printed);
        assertTrue(printed.contains("negative reason=EPERM: no CAP_SYS_NICE and RLIMIT_RTPRIO 0;"
                + " nice -5 refused too: EACCES: lowering nice needs CAP_SYS_NICE or RLIMIT_NICE\n"), printed);
        // A new thread inherits its creator's nice: it started at the 5 the main thread fell back to, and keeps it.
        assertTrue(printed.contains("negative obtained=Optional[SCHED_OTHER nice 5]\n"), printed);
    }

    private static void assumeRealtimeAllowed() throws IOException, InterruptedException {
        Process chrt;
        try {
            chrt = new ProcessBuilder("chrt", "-f", "10", "true").redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "needs chrt (util-linux) to check that SCHED_FIFO 10 is allowed here: " + e.getMessage());
            return;
        }
        assumeTrue(chrt.waitFor(30, TimeUnit.SECONDS) && chrt.exitValue() == 0,
                "needs SCHED_FIFO 10 allowed (CAP_SYS_NICE or RLIMIT_RTPRIO >= 10): `chrt -f 10 true` fails here");
    }

    /** Runs {@code work} on a new platform thread that ends with it; its failures fail the test with their own message. */
    static <T> T onThreadThatEnds(Callable<T> work) throws Exception {
        try (ExecutorService thread = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            Future<T> result = thread.submit(work);
            try {
                return result.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        }
    }

    /** The scheduling fields of {@code /proc/thread-self/stat} (proc(5)): nice is field 19, rt_priority 40, policy 41. */
    record KernelView(int nice, int rtPriority, int policy) {
        static KernelView ofThisThread() throws IOException {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            // Fields after the command name, which may hold spaces and parentheses; field 3 is the first.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return new KernelView(Integer.parseInt(fields[19 - 3]), Integer.parseInt(fields[40 - 3]), Integer.parseInt(fields[41 - 3]));
        }
    }
}
