package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.affinity.SchedClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** HOSTED's threads apply the runtime's priority policy as they start; the kernel agrees with what is recorded. */
class ThreadPriorityTest {

    @Test
    void everyWorkerAppliesTheNicePolicyAndTheKernelSaysSo() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).priority(PriorityPolicy.nice(7)).build()) {
            Map<Integer, String[]> stats = statsOfEachWorker(runtime);
            for (int worker = 0; worker < 2; worker++) {
                PriorityResult result = runtime.metrics().priorityResults().get("lanehost-worker-" + worker);
                assertNotNull(result, "worker " + worker + " recorded its priority");
                assertEquals(PriorityResult.Outcome.APPLIED, result.outcome(), result.toString()); // raising nice is always allowed
                assertEquals("7", stats.get(worker)[18], "nice (field 19 of /proc/thread-self/stat)");
            }
        }
    }

    @Test
    void aRealtimePolicyIsAppliedOrFallsBackWithAReasonNeverFailingTheStart() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2)
                .priority(PriorityPolicy.realtime(SchedClass.FIFO, 10, 5)).build()) {
            Map<Integer, String[]> stats = statsOfEachWorker(runtime);
            for (int worker = 0; worker < 2; worker++) {
                PriorityResult result = runtime.metrics().priorityResults().get("lanehost-worker-" + worker);
                String[] stat = stats.get(worker);
                if (result.outcome() == PriorityResult.Outcome.APPLIED) {
                    assertEquals("1", stat[40], "SCHED_FIFO (field 41): " + result);
                    assertEquals("10", stat[39], "rt_priority (field 40): " + result);
                } else {
                    // A container without CAP_SYS_NICE or an RT budget: the fallback nice, and the reason.
                    assertEquals(PriorityResult.Outcome.FELL_BACK, result.outcome(), result.toString());
                    assertTrue(!result.reason().isBlank(), result.toString());
                    assertEquals("5", stat[18], result.toString());
                }
            }
        }
    }

    @Test
    void underARealtimePolicyTheTimerThreadRunsOnePriorityAboveTheWorkersSoBudgetsStillWatchThem() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2)
                .priority(PriorityPolicy.realtime(SchedClass.FIFO, 10, 5)).build()) {
            statsOfEachWorker(runtime); // the runtime has started its threads
            PriorityResult worker = runtime.metrics().priorityResults().get("lanehost-worker-0");
            PriorityResult timer = runtime.metrics().priorityResults().get("lanehost-timer");
            assertNotNull(timer, "the timer thread recorded its priority: " + runtime.metrics().priorityResults());
            assertEquals(worker.outcome(), timer.outcome(), "the same capability decides both: " + worker + " / " + timer);
            if (timer.isApplied()) {
                assertEquals(SchedClass.FIFO, timer.obtained().orElseThrow().schedClass(), timer.toString());
                int priority = timer.obtained().orElseThrow().priority();
                assertTrue(priority == 11 || priority == 10, "one above the workers, or equal where RLIMIT_RTPRIO is 10: " + timer);
            }
        }
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).priority(PriorityPolicy.nice(7)).build()) {
            statsOfEachWorker(runtime);
            assertEquals(null, runtime.metrics().priorityResults().get("lanehost-timer"), "a normal-class policy leaves it as it is");
        }
    }

    /** Each worker's /proc/thread-self/stat fields, read by a pinned actor on that worker (after the command). */
    private static Map<Integer, String[]> statsOfEachWorker(ActorRuntime runtime) throws InterruptedException {
        Map<Integer, String[]> stats = new ConcurrentHashMap<>();
        CountDownLatch read = new CountDownLatch(2);
        for (int worker = 0; worker < 2; worker++) {
            int index = worker;
            runtime.spawnPinned(worker, "stat-" + worker, () -> (context, message) -> {
                String stat = Files.readString(Path.of("/proc/thread-self/stat"));
                stats.put(index, stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1)); // fields from 3 on
                read.countDown();
            }).tell("read");
        }
        assertTrue(read.await(30, TimeUnit.SECONDS));
        // Re-index so that [n - 1] is field n, as proc(5) numbers them: prepend pid and comm.
        Map<Integer, String[]> byField = new ConcurrentHashMap<>();
        stats.forEach((worker, rest) -> {
            String[] fields = new String[rest.length + 2];
            System.arraycopy(rest, 0, fields, 2, rest.length);
            byField.put(worker, fields);
        });
        return byField;
    }
}
