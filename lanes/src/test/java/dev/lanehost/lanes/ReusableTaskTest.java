package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A task that holds its own letter: queued without a wrapper, once at a time, and offered again once it has left. */
class ReusableTaskTest {

    /** Counts its runs and abandonments. */
    private static final class Counting extends ReusableTask {
        int runs;
        int abandoned;

        @Override
        public void run(ActorContext context) {
            runs++;
        }

        @Override
        public void abandoned() {
            abandoned++;
        }
    }

    @Test
    void aTaskIsQueuedOnceAtATimeAndAgainOnceItRan() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            ActorRef other = runtime.spawn("b", () -> (c, m) -> { });
            Counting task = new Counting();
            assertEquals(Delivery.QUEUED, actor.offerTask(task));
            assertTrue(task.isQueued());
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> actor.offerTask(task));
            assertTrue(twice.getMessage().contains("already queued"), twice.getMessage());
            assertThrows(IllegalStateException.class, () -> other.offerTask(task), "nor in another actor's queue");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1, task.runs, "queued once, run once: the refused offers left the queue as it was");
            assertFalse(task.isQueued());
            for (int i = 0; i < 3; i++) {
                assertEquals(Delivery.QUEUED, other.offerTask(task));
                runtime.runUntilIdle(Duration.ZERO);
            }
            assertEquals(4, task.runs);
        }
    }

    @Test
    void aRefusedOfferLeavesTheTaskFree() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            ActorRef live = runtime.spawn("b", () -> (c, m) -> { });
            actor.kill();
            runtime.runUntilIdle(Duration.ZERO);
            Counting task = new Counting();
            assertEquals(Delivery.TERMINATED, actor.offerTask(task));
            assertFalse(task.isQueued());
            assertEquals(Delivery.QUEUED, live.offerTask(task));
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1, task.runs);
            assertEquals(0, task.abandoned, "refused is not abandoned: the offer said so");
        }
    }

    @Test
    void aTaskQueuedWhenItsActorHaltsIsAbandonedAndFreeAgain() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            ActorRef live = runtime.spawn("b", () -> (c, m) -> { });
            runtime.runUntilIdle(Duration.ZERO);
            Counting task = new Counting();
            assertEquals(Delivery.QUEUED, actor.offerTask(task));
            actor.kill();
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, task.runs);
            assertEquals(1, task.abandoned);
            assertFalse(task.isQueued(), "the teardown took it out of the queue");
            assertEquals(Delivery.QUEUED, live.offerTask(task));
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1, task.runs);
        }
    }

    @Test
    void offeringAndRunningAReusableTaskAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "a", () -> (c, m) -> { });
            Counting task = new Counting();
            DriveCounts counts = new DriveCounts();
            lane.drive(0, counts); // the start turn
            offerAndDrive(actor, task, lane, counts, 60_000);
            long before = threads.getCurrentThreadAllocatedBytes();
            int failures = offerAndDrive(actor, task, lane, counts, 10_000);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, failures);
            assertEquals(70_000, task.runs);
            assertEquals(0, allocated, "bytes allocated by 10,000 offers and their turns");
        }
    }

    private static int offerAndDrive(ActorRef actor, ReusableTask task, ExecutionLane lane, DriveCounts counts, int times) {
        int failures = 0;
        for (int i = 0; i < times; i++) {
            if (actor.offerTask(task) != Delivery.QUEUED || lane.drive(1, counts) != 0 || counts.turns() != 1) {
                failures++;
            }
        }
        return failures;
    }
}
