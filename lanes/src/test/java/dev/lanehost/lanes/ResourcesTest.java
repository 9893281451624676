package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Timers, signals and parks, and the halt that tears them down. */
class ResourcesTest {

    @Test
    void everyDueTimerFiresInOneDrainInDeadlineOrder() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            List<String> fired = new ArrayList<>();
            runtime.spawn("timers", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofMillis(30), c -> fired.add("30"));
                    context.delay(Duration.ofMillis(10), c -> fired.add("10"));
                    context.delay(Duration.ofMillis(20), c -> fired.add("20"));
                    context.delay(Duration.ofMillis(90), c -> fired.add("90"));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            assertEquals(4, runtime.resources().timers());
            assertEquals(3, runtime.advance(Duration.ofMillis(50)), "due timers fire when the clock moves");
            assertEquals(1, runtime.drain().turns(), "one pass: one turn for the one runnable actor");
            assertEquals(List.of("10"), fired);
            assertEquals(RunStatus.TIMERS_PENDING, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(List.of("10", "20", "30"), fired);
            runtime.advance(Duration.ofMillis(40));
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(List.of("10", "20", "30", "90"), fired);
            assertEquals(0, runtime.resources().timers());
        }
    }

    @Test
    void singleThreadDrainFiresTimersThatAreAlreadyDue() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger fired = new AtomicInteger();
            runtime.spawn("now", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    for (int i = 0; i < 3; i++) {
                        context.delay(Duration.ZERO, c -> fired.incrementAndGet());
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            DrainResult result = runtime.drain();
            assertEquals(3, result.timersFired());
            assertEquals(1, result.turns());
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(3, fired.get());
        }
    }

    @Test
    void theHostedTimerThreadFiresOnTheOwnersPlacement() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CountDownLatch fired = new CountDownLatch(1);
            AtomicReference<String> thread = new AtomicReference<>();
            runtime.spawn("hosted", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofMillis(1), c -> {
                        thread.set(Thread.currentThread().getName());
                        fired.countDown();
                    });
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertTrue(fired.await(30, TimeUnit.SECONDS));
            // A normal actor's placement is the workers (any of them), never the timer thread that fired the timer.
            assertTrue(thread.get().startsWith("lanehost-worker-"), thread.get());
        }
    }

    @Test
    void aCancelledTimerNeverFires() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicReference<Timer> timer = new AtomicReference<>();
            AtomicInteger fired = new AtomicInteger();
            runtime.spawn("t", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    timer.set(context.delay(Duration.ofMillis(5), c -> fired.incrementAndGet()));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            assertTrue(timer.get().cancel());
            assertFalse(timer.get().cancel());
            runtime.advance(Duration.ofMillis(10));
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(0, fired.get());
            assertEquals(0, runtime.resources().timers());
        }
    }

    @Test
    void aOneShotSignalFiresOnceThenDetachesAndReleasesOnce() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<String> events = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<Signal> signal = new AtomicReference<>();
            runtime.spawn("listener", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    signal.set(context.signal(SignalMode.ONE_SHOT,
                            (c, payload) -> events.add("fired " + new String(payload)), () -> events.add("released")));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            byte[] payload = "abc".getBytes();
            List<Boolean> fired = Collections.synchronizedList(new ArrayList<>());
            Thread firer = Thread.ofPlatform().start(() -> {
                fired.add(signal.get().fire(payload));
                fired.add(signal.get().fire(payload));
            });
            firer.join();
            // Asserted here: a failed assertion on the firing thread would not fail the test.
            assertEquals(List.of(true, false), fired, "a one-shot fires once");
            payload[0] = 'X'; // the firing copied the payload
            assertEquals(List.of("released"), events, "detached by the firing; the callback waits for a turn");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("released", "fired abc"), events);
            assertFalse(signal.get().isAttached());
            assertFalse(signal.get().cancel());
            assertEquals(0, runtime.resources().signals());
        }
    }

    @Test
    void aMultishotSignalFiresUntilCancelledAndReleasesOnce() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger fired = new AtomicInteger();
            AtomicInteger released = new AtomicInteger();
            AtomicReference<Signal> signal = new AtomicReference<>();
            runtime.spawn("listener", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    signal.set(context.signal(SignalMode.MULTISHOT, (c, p) -> fired.incrementAndGet(), released::incrementAndGet));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            for (int i = 0; i < 5; i++) {
                assertTrue(signal.get().fire());
            }
            runtime.runUntilIdle(Duration.ZERO);
            assertTrue(signal.get().cancel());
            assertFalse(signal.get().cancel());
            assertFalse(signal.get().fire());
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(5, fired.get());
            assertEquals(1, released.get());
        }
    }

    @Test
    void aParkIsPendingThenDeliveredThenConsumedAndCompletesOnce() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicReference<Park<Integer>> park = new AtomicReference<>();
            List<Object> events = Collections.synchronizedList(new ArrayList<>());
            runtime.spawn("waiter", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    park.set(context.park((ParkCallback<Integer>) (c, value) -> events.add(value), () -> events.add("released")));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            assertEquals(Park.State.PENDING, park.get().state());
            List<Boolean> completed = Collections.synchronizedList(new ArrayList<>());
            Thread producer = Thread.ofPlatform().start(() -> {
                completed.add(park.get().complete(42));
                completed.add(park.get().complete(43));
            });
            producer.join();
            // Asserted here: a failed assertion on the producer thread would not fail the test.
            assertEquals(List.of(true, false), completed, "a park completes once");
            assertEquals(Park.State.DELIVERED, park.get().state());
            assertFalse(park.get().cancel(), "a delivered park is no longer pending");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(Park.State.CONSUMED, park.get().state());
            assertEquals(List.of(42, "released"), events);
            assertEquals(0, runtime.resources().parks());
        }
    }

    @Test
    void haltTearsDownEveryResourceKindInOrderAndLeaksNothing() {
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        RuntimeObserver observer = new RuntimeObserver() {
            @Override
            public void haltStep(ActorRef actor, HaltStep step) {
                trace.add(step.name());
            }
        };
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).observer(observer).build()) {
            AtomicReference<Park<String>> delivered = new AtomicReference<>();
            ActorRef owner = runtime.spawn("owner", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.signal(SignalMode.MULTISHOT, (c, p) -> { }, () -> trace.add("signal hook"));
                    context.signal(SignalMode.ONE_SHOT, (c, p) -> { }, () -> trace.add("one-shot hook"));
                    context.delay(Duration.ofHours(1), c -> trace.add("timer fired?!"));
                    context.park((ParkCallback<String>) (c, v) -> trace.add("park ran?!"), () -> trace.add("pending park hook"));
                    delivered.set(context.park((c, v) -> trace.add("delivered park ran?!"), () -> trace.add("delivered park hook")));
                    context.arena().allocate(1024);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    trace.add("message ran?!");
                }

                @Override
                public void stopped(ActorContext context, ExitReason reason) {
                    trace.add("stopped " + reason);
                }
            });
            runtime.drain();
            assertEquals(new ResourceCounts(1, 2, 1, 2, 1), runtime.resources());

            owner.tell("queued letter");
            delivered.get().complete("value"); // its letter sits in the mailbox when the halt comes
            assertTrue(owner.kill());
            assertFalse(owner.kill());
            assertEquals(List.of("REGISTRY"), trace, "claim and registry removal happen at once; the rest on the placement");
            runtime.runUntilIdle(Duration.ZERO);

            assertEquals(List.of("REGISTRY", "stopped Killed[]", "STOPPED",
                    "delivered park hook", "LETTERS",
                    "signal hook", "one-shot hook", "SIGNALS",
                    "TIMERS",
                    "pending park hook", "PARKS",
                    "ARENA", "NOTIFIED"), trace);
            assertEquals(ResourceCounts.NONE, runtime.resources());
            assertEquals(List.of(), runtime.snapshot().actors());
        }
    }

    @Test
    void aLaneActorHaltedFromAnotherThreadIsTornDownOnItsLane() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("gl");
            AtomicReference<Thread> stoppedOn = new AtomicReference<>();
            ActorRef actor = runtime.spawnOnLane("gl", "context-owner", () -> new Behavior() {
                @Override
                public void receive(ActorContext context, Object message) {
                }

                @Override
                public void stopped(ActorContext context, ExitReason reason) {
                    stoppedOn.set(Thread.currentThread());
                }
            });
            Thread host = Thread.ofPlatform().unstarted(() -> lane.drive(0));
            host.start();
            host.join();
            actor.kill();
            assertEquals(null, stoppedOn.get(), "not on the killing thread");
            assertEquals(1, runtime.resources().actors(), "teardown waits for the lane");
            // The first host thread has ended: the next thread to drive the lane takes it over and runs the
            // pending teardown there.
            Thread again = Thread.ofPlatform().unstarted(() -> lane.drive(0));
            again.start();
            again.join();
            assertEquals(ResourceCounts.NONE, runtime.resources());
            assertEquals(again, stoppedOn.get());
        }
    }
}
