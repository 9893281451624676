package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Idle reaping in virtual time (exact) and on HOSTED: a quiet mailbox for the timeout reaps the actor. */
class IdleReapingTest {
    private static final long SECOND = 1_000_000_000L;

    /** Records the virtual time of its halt through a monitor. */
    private static AtomicLong haltedAt(ActorRuntime runtime, ActorRef watched) {
        AtomicLong at = new AtomicLong(-1);
        runtime.spawn("watcher-" + watched.id(), () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                context.monitor(watched);
                context.unneeded(ActorContext.NEVER);
            }

            @Override
            public void receive(ActorContext context, Object message) {
                at.set(context.nanoTime());
            }
        });
        return at;
    }

    @Test
    void anActorQuietForTheRuntimesTimeoutIsReapedWithinAQuarterTimeoutMore() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).idleTimeout(Duration.ofSeconds(8)).build()) {
            ActorRef actor = runtime.spawn("quiet", () -> (context, message) -> { });
            AtomicLong halted = haltedAt(runtime, actor);
            long start = runtime.nanoTime();
            runtime.runUntilIdle(Duration.ofSeconds(30));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow());
            long quiet = halted.get() - start;
            assertTrue(quiet >= 8 * SECOND && quiet <= 10 * SECOND, "reaped after " + quiet / 1e9 + " s of quiet");
        }
    }

    @Test
    void lettersKeepAnActorAliveAndTheQuietCountsFromTheLastOne() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).idleTimeout(Duration.ofSeconds(8)).build()) {
            ActorRef actor = runtime.spawn("busy", () -> (context, message) -> { });
            AtomicLong halted = haltedAt(runtime, actor);
            for (int i = 0; i < 10; i++) { // a letter every 5 s for 50 s
                runtime.runUntilIdle(Duration.ofSeconds(5));
                assertTrue(actor.tell(i));
            }
            runtime.runUntilIdle(Duration.ZERO);
            long lastLetter = runtime.nanoTime();
            assertFalse(actor.isTerminated(), "alive while letters keep coming");
            runtime.runUntilIdle(Duration.ofSeconds(30));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow());
            long quiet = halted.get() - lastLetter;
            assertTrue(quiet >= 8 * SECOND && quiet <= 10 * SECOND, "reaped " + quiet / 1e9 + " s after its last letter");
        }
    }

    @Test
    void waitingOnADelayIsNotLiveness() {
        AtomicInteger fired = new AtomicInteger();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).idleTimeout(Duration.ofSeconds(8)).build()) {
            ActorRef actor = runtime.spawn("waiting", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofSeconds(100), c -> fired.incrementAndGet());
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ofSeconds(200));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow());
            assertEquals(0, fired.get(), "the delay it waited on was released with it");
            assertEquals(0, runtime.resources().timers());
        }
    }

    @Test
    void unneededSetsTheActorsOwnLifetimeWithOneFinalTurnOnItsPlacement() {
        List<String> log = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) { // the runtime reaps nothing by itself
            ExecutionLane lane = runtime.registerLane("ui");
            ActorRef actor = runtime.spawnOnLane("ui", "session", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.unneeded(Duration.ofSeconds(4), c -> log.add("last turn at " + c.nanoTime() / SECOND + " on " + Thread.currentThread().getName()));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    log.add("message");
                }
            });
            AtomicLong halted = haltedAt(runtime, actor);
            runtime.runUntilIdle(Duration.ofSeconds(60));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow());
            assertEquals(1, log.size(), log.toString());
            assertTrue(log.get(0).startsWith("last turn at "), log.toString());
            assertTrue(lane.turns() >= 2, "the last turn ran on the lane");
            assertTrue(halted.get() > 0);
        }
    }

    @Test
    void aLetterWaitingBehindTheCheckIsNotQuietAndIsHandled() {
        List<Object> handled = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).idleTimeout(Duration.ofSeconds(8)).build()) {
            ActorRef actor = runtime.spawn("late-letter", () -> (context, message) -> handled.add(message));
            runtime.runUntilIdle(Duration.ZERO); // the start: quiet from here
            assertTrue(runtime.advance(Duration.ofSeconds(8)) > 0, "the check is due and queued, not yet run");
            assertTrue(actor.tell("late"), "queued behind the check");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("late"), handled, "an accepted letter was handled, not dropped by a reap");
            assertFalse(actor.isTerminated(), "a letter waiting is not quiet");
            runtime.runUntilIdle(Duration.ofSeconds(30));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow(), "quiet after that letter, it is reaped");
        }
    }

    @Test
    void aSendAfterTheReapIsDecidedIsRefusedEvenFromTheLastTurn() {
        AtomicReference<Delivery> fromLastTurn = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("closing", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.unneeded(Duration.ofSeconds(4), c -> fromLastTurn.set(c.self().offer("one more")));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ofSeconds(60));
            assertEquals(ExitReason.REAPED, actor.exitReason().orElseThrow());
            assertEquals(Delivery.TERMINATED, fromLastTurn.get(), "refused, not queued into a mailbox nobody reads");
        }
    }

    @Test
    void unneededNeverMarksAPermanentServiceAndReapingIsOffByDefault() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).idleTimeout(Duration.ofSeconds(1)).build()) {
            ActorRef service = runtime.spawn("service", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.unneeded(ActorContext.NEVER);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(1_000)));
            assertFalse(service.isTerminated());
        }
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef idle = runtime.spawn("idle", () -> (context, message) -> { });
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(1_000)));
            assertFalse(idle.isTerminated(), "no idle timeout unless one is set");
            assertEquals(0, runtime.resources().timers(), "and no check timer either");
        }
    }

    @Test
    void aHostedActorIsReapedByItsOwnTurn() throws InterruptedException {
        CountDownLatch down = new CountDownLatch(1);
        AtomicReference<ExitReason> reason = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).idleTimeout(Duration.ofMillis(40)).build()) {
            ActorRef actor = runtime.spawn("quiet", () -> (context, message) -> { });
            runtime.spawn("watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(actor);
                    context.unneeded(ActorContext.NEVER);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    reason.set(((Down) message).reason());
                    down.countDown();
                }
            });
            assertTrue(down.await(30, TimeUnit.SECONDS));
            assertEquals(ExitReason.REAPED, reason.get());
        }
    }

    @Test
    void badTimeoutsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.HOSTED).idleTimeout(Duration.ofSeconds(-1)));
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            runtime.spawn("bad", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    try {
                        context.unneeded(Duration.ZERO);
                    } catch (IllegalArgumentException e) {
                        refused.set(e);
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            assertEquals("an idle timeout must be positive, or ActorContext.NEVER; got PT0S", refused.get().getMessage());
        }
    }
}
