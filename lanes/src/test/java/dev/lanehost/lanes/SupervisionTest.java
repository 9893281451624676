package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** After a fault a supervisor retires the actor, restarts it (a new identity) or hydrates it (same identity, fresh state). */
class SupervisionTest {

    /** Counts the messages it handled since it started; throws on "boom". */
    private static final class Counter implements Behavior {
        private final List<String> log;
        private int handled;

        Counter(List<String> log) {
            this.log = log;
        }

        @Override
        public void started(ActorContext context) {
            log.add("started " + context.self().id());
        }

        @Override
        public void receive(ActorContext context, Object message) {
            if (message.equals("boom")) {
                throw new IllegalStateException("boom");
            }
            handled++;
            log.add(message + " #" + handled + " on " + context.self().id());
        }
    }

    private static SpawnOptions supervised(Remedy remedy, AtomicReference<ActorRef> fresh) {
        return SpawnOptions.DEFAULT.withSupervisor(new Supervisor() {
            @Override
            public Remedy onFault(ActorRef actor, ExitReason fault) {
                return remedy;
            }

            @Override
            public void restarted(ActorRef old, ActorRef replacement) {
                fresh.set(replacement);
            }
        });
    }

    @Test
    void withoutASupervisorAFaultRetiresTheActor() {
        List<String> log = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("counter", () -> new Counter(log));
            actor.tell("boom");
            actor.tell("after");
            runtime.runUntilIdle(Duration.ZERO);
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
            assertEquals(List.of("started 1"), log);
        }
    }

    @Test
    void restartReplacesTheActorWithAFreshIdentityAndOldReferencesReadTerminated() {
        SeededRuns.forEachSeed("supervision-restart", 30, runtime -> {
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicReference<ActorRef> fresh = new AtomicReference<>();
            ActorRef actor = runtime.spawn("counter", supervised(Remedy.RESTART, fresh), () -> new Counter(log));
            actor.tell("one");
            actor.tell("boom");
            actor.tell("lost with the old identity");
            runtime.runUntilIdle(Duration.ZERO);
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow(), "the old identity halted with the fault");
            ActorRef replacement = fresh.get();
            assertNotEquals(actor.id(), replacement.id());
            assertEquals("counter", replacement.name());
            assertFalse(actor.tell("to the old one"), "old references read terminated");
            assertTrue(replacement.tell("two"));
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("started " + actor.id(), "one #1 on " + actor.id(), "started " + replacement.id(),
                    "two #1 on " + replacement.id()), log);
        });
    }

    @Test
    void hydrateKeepsTheIdentityAndTheQueuedLettersWithAFreshState() {
        SeededRuns.forEachSeed("supervision-hydrate", 30, runtime -> {
            List<String> log = new CopyOnWriteArrayList<>();
            ActorRef actor = runtime.spawn("counter", supervised(Remedy.HYDRATE, new AtomicReference<>()), () -> new Counter(log));
            actor.tell("one");
            actor.tell("two");
            actor.tell("boom");
            actor.tell("three");
            runtime.runUntilIdle(Duration.ZERO);
            assertFalse(actor.isTerminated());
            long id = actor.id();
            assertEquals(List.of("started " + id, "one #1 on " + id, "two #2 on " + id, "started " + id, "three #1 on " + id), log,
                    "the fresh state counts from one; the letter after the fault was kept; the faulting one was not retried");
        });
    }

    @Test
    void aLaneActorsHydrationsLeaveTheLanesBacklogExact() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCapacity(4).build()) {
            ExecutionLane lane = runtime.registerLane("frame");
            List<String> log = new CopyOnWriteArrayList<>();
            ActorRef actor = runtime.spawnOnLane("frame", "counter", supervised(Remedy.HYDRATE, new AtomicReference<>()),
                    () -> new Counter(log));
            for (int fault = 0; fault < 3; fault++) {
                assertTrue(actor.tell("boom"));
                lane.drive(0); // the fault, then the fresh life's start: a turn with no letter queued for it
                assertEquals(0, lane.queuedLetters(), "after hydration " + (fault + 1));
            }
            int admitted = 0;
            while (actor.tell("fill")) {
                admitted++;
            }
            assertEquals(4, admitted, "the lane's capacity, not one more per hydration");
            assertEquals(4, lane.queuedLetters());
        }
    }

    @Test
    void theWarningForAFaultSaysWhatBecameOfTheActor() {
        try (CapturedLog captured = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<String> log = new CopyOnWriteArrayList<>();
            runtime.spawn("kept", supervised(Remedy.HYDRATE, new AtomicReference<>()), () -> new Counter(log)).tell("boom");
            runtime.spawn("renewed", supervised(Remedy.RESTART, new AtomicReference<>()), () -> new Counter(log)).tell("boom");
            runtime.spawn("retired", () -> new Counter(log)).tell("boom");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1, captured.matching(java.util.logging.Level.WARNING, "'kept'",
                    "kept by its supervisor, which hydrates it (its ref stays live): a turn threw").size());
            assertEquals(0, captured.matching(java.util.logging.Level.WARNING, "'kept'", "halted").size());
            assertEquals(1, captured.matching(java.util.logging.Level.WARNING, "'renewed'",
                    "halted, and its supervisor restarts it under a new ref: a turn threw").size());
            assertEquals(1, captured.matching(java.util.logging.Level.WARNING, "'retired'", "halted: a turn threw").size());
        }
    }

    @Test
    void aHydratedActorDropsWhatItsFormerLifesResourcesDeliveredAndReleasesThem() {
        AtomicInteger oldCallbacks = new AtomicInteger();
        AtomicInteger releaseHooks = new AtomicInteger();
        AtomicInteger lives = new AtomicInteger();
        AtomicReference<Signal> firstSignal = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("owner", supervised(Remedy.HYDRATE, new AtomicReference<>()), () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    if (lives.incrementAndGet() == 1) {
                        firstSignal.set(context.signal(SignalMode.MULTISHOT, (c, payload) -> oldCallbacks.incrementAndGet(),
                                releaseHooks::incrementAndGet));
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    throw new IllegalStateException("boom");
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            actor.tell("boom");
            assertTrue(firstSignal.get().fire(new byte[0]), "fired while the first life held it: a letter behind the boom");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(2, lives.get());
            assertEquals(0, oldCallbacks.get(), "the former life's signal letter was dropped, not run by the fresh state");
            assertEquals(1, releaseHooks.get(), "the hydration released the former life's signal");
            assertFalse(firstSignal.get().isAttached());
            assertEquals(new ResourceCounts(1, 0, 0, 0, 0), runtime.resources(), "the actor lives on; nothing of its former life is left open");
        }
    }

    @Test
    void singleThreadDoesNotChargeTheSupervisorsWorkToTheTurnThatThrew() {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(10), 1);
        List<String> log = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).turnBudget(budget).build()) {
            ActorRef actor = runtime.spawn("counter", SpawnOptions.DEFAULT.withSupervisor((ref, fault) -> {
                try {
                    Thread.sleep(50); // a supervisor whose work takes long (as a first log line can): not a wait for anything
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Remedy.HYDRATE;
            }), () -> new Counter(log));
            actor.tell("boom");
            actor.tell("after");
            runtime.runUntilIdle(Duration.ZERO);
            assertFalse(actor.isTerminated(), "hydrated, not halted for the supervisor's 50 ms: " + actor.exitReason());
            assertEquals(List.of("started " + actor.id(), "started " + actor.id(), "after #1 on " + actor.id()), log);
        }
    }

    @Test
    void aBudgetFaultIsSupervisedTooAndAFreshStartThatFaultsRetires() {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(2), 1);
        AtomicInteger starts = new AtomicInteger();
        List<ExitReason> faults = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).turnBudget(budget).build()) {
            ActorRef actor = runtime.spawn("runaway", SpawnOptions.DEFAULT.withSupervisor((ref, fault) -> {
                faults.add(fault);
                return Remedy.HYDRATE;
            }), () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    if (starts.incrementAndGet() > 1) {
                        throw new IllegalStateException("the fresh start fails too");
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    while (true) {
                        context.checkpoint();
                    }
                }
            });
            actor.tell("spin");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of(ExitReason.BUDGET), faults, "the budget fault went to the supervisor; the failed fresh start did not");
            assertEquals(2, starts.get());
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow(), "the fresh start's fault retired it");
        }
    }

    @Test
    void aStartThatFaultsIntoAHydrationIsFollowedByTheFreshStartAndNoLetterIsLost() {
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicInteger lives = new AtomicInteger();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("flaky-start", SpawnOptions.DEFAULT.withSupervisor((ref, fault) -> Remedy.HYDRATE),
                    () -> new Behavior() {
                        private final int life = lives.incrementAndGet();

                        @Override
                        public void started(ActorContext context) {
                            if (life == 1) {
                                throw new IllegalStateException("the first start fails");
                            }
                            log.add("started life " + life);
                        }

                        @Override
                        public void receive(ActorContext context, Object message) {
                            log.add("life " + life + " got " + message);
                        }
                    });
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("started life 2"), log, "the fresh start ran as the next turn, with no letter sent");
            assertTrue(actor.tell("m1"));
            assertTrue(actor.tell("m2"));
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("started life 2", "life 2 got m1", "life 2 got m2"), log);
            assertFalse(actor.isTerminated());
            assertEquals(1, runtime.metrics().hydrations());
            assertEquals(0, runtime.metrics().restarts());
        }
    }

    @Test
    void aRestartedActorWhoseStartFaultsIsRetiredSoABrokenFactoryCannotLoop() {
        AtomicInteger starts = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        AtomicReference<ActorRef> fresh = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("broken", SpawnOptions.DEFAULT.withSupervisor(new Supervisor() {
                @Override
                public Remedy onFault(ActorRef ref, ExitReason fault) {
                    asked.incrementAndGet();
                    return Remedy.RESTART;
                }

                @Override
                public void restarted(ActorRef old, ActorRef replacement) {
                    fresh.set(replacement);
                }
            }), () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    starts.incrementAndGet();
                    throw new IllegalStateException("the factory makes a behaviour that cannot start");
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO, 1_000));
            assertEquals(2, starts.get(), "the first start and one restart's");
            assertEquals(1, asked.get(), "the restarted actor's failed start did not go to the supervisor");
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
            assertInstanceOf(ExitReason.Failed.class, fresh.get().exitReason().orElseThrow(), "the restarted actor was retired");
            assertEquals(1, runtime.metrics().restarts());
            assertEquals(0, runtime.metrics().hydrations());
            assertEquals(2, runtime.metrics().halts(ExitReason.Failed.class), "the restart's halt and the retirement's");
        }
    }

    @Test
    void aSupervisorThatThrowsRetiresTheActor() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("counter", SpawnOptions.DEFAULT.withSupervisor((ref, fault) -> {
                throw new IllegalStateException("the supervisor is broken");
            }), () -> new Counter(new CopyOnWriteArrayList<>()));
            actor.tell("boom");
            runtime.runUntilIdle(Duration.ZERO);
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
        }
    }

    @Test
    void hostedRestartAndHydrateWorkOnTheWorkerAndOnALane() throws InterruptedException {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicReference<ActorRef> fresh = new AtomicReference<>();
            CountDownLatch restarted = new CountDownLatch(1);
            ActorRef normal = runtime.spawn("normal", SpawnOptions.DEFAULT.withSupervisor(new Supervisor() {
                @Override
                public Remedy onFault(ActorRef actor, ExitReason fault) {
                    return Remedy.RESTART;
                }

                @Override
                public void restarted(ActorRef old, ActorRef replacement) {
                    fresh.set(replacement);
                    restarted.countDown();
                }
            }), () -> new Counter(log));
            normal.tell("boom");
            assertTrue(restarted.await(30, TimeUnit.SECONDS));
            assertTrue(normal.isTerminated());
            assertFalse(fresh.get().isTerminated());

            ExecutionLane lane = runtime.registerLane("ui");
            ActorRef onLane = runtime.spawnOnLane("ui", "widget", supervised(Remedy.HYDRATE, new AtomicReference<>()),
                    () -> new Counter(log));
            onLane.tell("boom");
            onLane.tell("after");
            lane.drive(0);
            assertFalse(onLane.isTerminated());
            assertTrue(log.contains("after #1 on " + onLane.id()), log.toString());
        }
    }
}
