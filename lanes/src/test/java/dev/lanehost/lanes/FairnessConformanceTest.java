package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The contract's Fairness clause: a ready actor is dispatched within a bounded number of scheduling events (turns
 * of other actors), even among actors that are never idle. Measured with {@value #BUSY} actors that send
 * themselves a letter every turn, forever, and one that becomes ready among them.
 */
class FairnessConformanceTest {
    private static final int BUSY = 8;

    /** Turns of other actors between the target's letter and its turn, stepping one turn at a time. */
    private static long turnsUntilDispatched(ActorRuntime runtime, long warmUpTurns) {
        for (int i = 0; i < BUSY; i++) {
            ActorRef busy = runtime.spawn("busy-" + i, () -> (context, message) -> context.self().tell(message));
            busy.tell("again");
        }
        AtomicBoolean ran = new AtomicBoolean();
        ActorRef target = runtime.spawn("target", () -> (context, message) -> ran.set(true));
        runtime.runUntilIdle(Duration.ZERO, warmUpTurns); // every start, then the busy ones going round
        target.tell("now");
        long others = 0;
        while (!ran.get()) {
            assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ZERO, 1));
            if (!ran.get()) {
                others++;
            }
        }
        return others;
    }

    @Test
    void simulatedDispatchesAReadyActorWithinTwoRoundsOfTheOthersForEverySeed() {
        AtomicLong worst = new AtomicLong();
        SeededRuns.forEachSeed("fairness", 300, runtime -> {
            long others = turnsUntilDispatched(runtime, 50 + worst.get() % 13);
            worst.accumulateAndGet(others, Math::max);
            assertTrue(others <= 2L * BUSY, others + " turns of other actors before the target (bound " + 2 * BUSY + ")");
        });
        assertTrue(worst.get() >= BUSY, "the seeds never put the target late in a round: " + worst.get() + " (the test measures nothing)");
    }

    @Test
    void singleThreadDispatchesAReadyActorBehindAtMostEveryOtherReadyActor() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            long others = turnsUntilDispatched(runtime, 50);
            assertTrue(others <= BUSY, others + " turns of other actors before the target (first in, first out: at most " + BUSY + ")");
        }
    }

    @Test
    void hostedDispatchesAReadyActorBehindAtMostEveryOtherReadyActor() throws InterruptedException {
        AtomicLong busyTurns = new AtomicLong();
        AtomicLong turnsBeforeDispatch = new AtomicLong();
        CountDownLatch dispatched = new CountDownLatch(1);
        // One worker: the clause is about one run queue (with more, the other workers' turns would count too);
        // one turn per run: the clause counts runs, and each busy actor always has its next letter.
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).turnsPerRun(1).build()) {
            ActorRef target = runtime.spawn("target", () -> (context, message) -> {
                turnsBeforeDispatch.set(busyTurns.get() - (Long) message);
                dispatched.countDown();
            });
            ActorRef[] busy = new ActorRef[BUSY];
            for (int i = 0; i < BUSY; i++) {
                busy[i] = runtime.spawn("busy-" + i, () -> (context, message) -> {
                    long turn = busyTurns.incrementAndGet();
                    if (message.equals("make the target ready")) {
                        target.tell(turn); // from inside a turn: no race between the count and the queueing
                    }
                    context.self().tell("again");
                });
                busy[i].tell("again");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (busyTurns.get() < 10_000) { // the busy ones going round
                assertTrue(System.nanoTime() < deadline, "the busy actors never got going");
                Thread.onSpinWait();
            }
            busy[3].tell("make the target ready");
            assertTrue(dispatched.await(30, TimeUnit.SECONDS));
            // Ahead of the target: the other busy actors, each queued once; the one that made it ready requeues behind it.
            assertTrue(turnsBeforeDispatch.get() <= BUSY - 1, turnsBeforeDispatch.get() + " busy turns before the target");
        }
    }
}
