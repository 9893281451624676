package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The contract's TurnDiscipline clause: turns of one actor never interleave and run to completion, whichever
 * threads send to it and drive it; running out of budget is a fault (the actor halts with BUDGET), never a
 * scheduling event that lets the turn resume later.
 */
class TurnDisciplineConformanceTest {
    private static final int SENDERS = 3;
    private static final int LETTERS = 20_000;

    /** A behaviour that fails loudly if a turn begins while another of the same actor is running. */
    private static final class Exclusive implements Behavior {
        private final AtomicBoolean inTurn = new AtomicBoolean();
        private final AtomicInteger overlaps;
        private final AtomicLong handled;

        Exclusive(AtomicInteger overlaps, AtomicLong handled) {
            this.overlaps = overlaps;
            this.handled = handled;
        }

        @Override
        public void receive(ActorContext context, Object message) {
            if (!inTurn.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
                return;
            }
            for (int i = 0; i < 50; i++) {
                Thread.onSpinWait(); // a window for an overlap to show
            }
            handled.incrementAndGet();
            inTurn.set(false);
        }
    }

    @Test
    void hostedTurnsOfALaneActorNeverOverlapWhileSendersRaceAndTheLaneChangesThread() throws InterruptedException {
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong handled = new AtomicLong();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "exclusive", () -> new Exclusive(overlaps, handled));
            List<Thread> threads = new ArrayList<>();
            CountDownLatch sent = new CountDownLatch(SENDERS);
            for (int s = 0; s < SENDERS; s++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < LETTERS; i++) {
                        while (!actor.tell(i)) {
                            Thread.onSpinWait();
                        }
                    }
                    sent.countDown();
                }));
            }
            // Two host threads take turns driving: each releases the lane after a while, the other binds it.
            AtomicBoolean done = new AtomicBoolean();
            for (int h = 0; h < 2; h++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    DriveCounts counts = new DriveCounts();
                    while (!done.get()) {
                        if (lane.bind() != DriveStatus.OK) {
                            Thread.onSpinWait();
                            continue;
                        }
                        for (int d = 0; d < 50; d++) {
                            lane.drive(16, counts);
                        }
                        lane.release();
                    }
                }));
            }
            assertTrue(sent.await(60, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (handled.get() + overlaps.get() < (long) SENDERS * LETTERS) {
                assertTrue(System.nanoTime() < deadline, "handled " + handled.get());
                Thread.onSpinWait();
            }
            done.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(0, overlaps.get(), "turns of one actor overlapped");
            assertEquals((long) SENDERS * LETTERS, handled.get());
            assertTrue(lane.rebinds() > 0, "the lane changed threads during the run");
        }
    }

    @Test
    void hostedTurnsOfANormalActorNeverOverlapWhileSendersRace() throws InterruptedException {
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong handled = new AtomicLong();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("exclusive", () -> new Exclusive(overlaps, handled));
            List<Thread> senders = new ArrayList<>();
            for (int s = 0; s < SENDERS; s++) {
                senders.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < LETTERS; i++) {
                        while (!actor.tell(i)) {
                            Thread.onSpinWait();
                        }
                    }
                }));
            }
            for (Thread sender : senders) {
                sender.join();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (handled.get() + overlaps.get() < (long) SENDERS * LETTERS) {
                assertTrue(System.nanoTime() < deadline, "handled " + handled.get());
                Thread.onSpinWait();
            }
            assertEquals(0, overlaps.get());
        }
    }

    @Test
    void runningOutOfBudgetIsAFaultNotAPauseForEverySeed() {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(2), 3);
        SeededRuns.forEachSeed("turn-discipline-budget", 100, builder -> builder.turnBudget(budget), runtime -> {
            AtomicInteger resumed = new AtomicInteger();
            ActorRef runaway = runtime.spawn("runaway", () -> (context, message) -> {
                while (true) {
                    context.checkpoint();
                }
            });
            ActorRef bystander = runtime.spawn("bystander", () -> (context, message) -> resumed.incrementAndGet());
            runaway.tell("go");
            bystander.tell(1);
            bystander.tell(2);
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(ExitReason.BUDGET, runaway.exitReason().orElseThrow(), "exhaustion halts: the turn never resumes");
            assertFalse(bystander.isTerminated());
            assertEquals(2, resumed.get(), "the other actor ran whatever the seed put first");
        });
    }
}
