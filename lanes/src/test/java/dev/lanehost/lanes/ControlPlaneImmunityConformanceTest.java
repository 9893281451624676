package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract's ControlPlaneImmunity clause: halts, timers and budget enforcement keep working while every runner
 * and queue is saturated — here by actors that message themselves forever, around a turn that never returns.
 */
class ControlPlaneImmunityConformanceTest {
    private static final int BUSY = 8;

    private static void saturate(ActorRuntime runtime) {
        for (int i = 0; i < BUSY; i++) {
            ActorRef busy = runtime.spawn("busy-" + i, () -> (context, message) -> {
                context.checkpoint();
                context.self().tell(message);
            });
            busy.tell("again");
        }
    }

    @Test
    void hostedHaltsTimersAndBudgetsWorkWhileTheWorkerIsSaturated() throws InterruptedException {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        CountDownLatch timerFired = new CountDownLatch(1);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
            saturate(runtime);
            ActorRef victim = runtime.spawn("victim", () -> (context, message) -> { });
            runtime.spawn("clock", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofMillis(2), c -> timerFired.countDown());
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            ActorRef runaway = runtime.spawn("runaway", () -> (context, message) -> {
                while (true) {
                    context.checkpoint(); // holds the only worker until the budget disrupts it
                }
            });
            CountDownLatch runawayDown = Downs.awaitable(runtime, runaway);
            runaway.tell("go");
            assertTrue(victim.kill(), "a halt is claimed from any thread, whatever the worker is doing");
            assertEquals(ExitReason.KILLED, victim.exitReason().orElseThrow());
            assertTrue(runawayDown.await(30, TimeUnit.SECONDS), "the budget watch never disrupted the turn holding the worker");
            assertEquals(ExitReason.BUDGET, runaway.exitReason().orElseThrow());
            assertTrue(timerFired.await(30, TimeUnit.SECONDS), "a timer never fired on a saturated runtime");
        }
    }

    @Test
    void simulatedTimersAndHaltsWorkWhileEveryQueueIsSaturatedForEverySeed() {
        SeededRuns.forEachSeed("control-plane", 100, runtime -> {
            saturate(runtime);
            AtomicInteger fired = new AtomicInteger();
            runtime.spawn("clock", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofMillis(1), c -> fired.incrementAndGet());
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            ActorRef victim = runtime.spawn("victim", () -> (context, message) -> { });
            assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ZERO, 200));
            assertTrue(victim.kill());
            // Each busy turn polls once: 1 µs of virtual time, so 1 ms passes in about a thousand of them.
            assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ZERO, 5_000));
            assertEquals(1, fired.get(), "the timer fired while the queue never emptied");
            assertTrue(victim.isTerminated());
            assertEquals(0, runtime.snapshot().actors().stream().filter(row -> row.name().equals("victim")).count(),
                    "the killed actor was torn down on a saturated queue");
        });
    }
}
