package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The contract's Admission clause. Bounded mailboxes and lanes: a message or task that does not fit is refused, observably; nothing accepted is lost. */
class AdmissionConformanceTest {

    @Test
    void aFullMailboxRefusesMessagesAndTasksAndLosesNothingItAccepted() {
        List<Object> handled = new ArrayList<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("bounded", SpawnOptions.DEFAULT.withMailboxCapacity(3),
                    () -> (context, message) -> handled.add(message));
            runtime.drain(); // started: the mailbox is empty
            assertEquals(Delivery.QUEUED, actor.offer(1));
            assertTrue(actor.tell(2));
            assertEquals(Delivery.QUEUED, actor.offerTask(context -> handled.add("task")));
            assertEquals(Delivery.FULL, actor.offer(4));
            assertFalse(actor.tell(5), "tell says false for a full mailbox");
            assertEquals(Delivery.FULL, actor.offerTask(context -> handled.add("refused task")));
            assertFalse(actor.submit(context -> handled.add("refused task")));
            assertEquals(4, runtime.metrics().refusedLetters());
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of(1, 2, "task"), handled, "every accepted letter handled, in order; no refused one");
            assertEquals(Delivery.QUEUED, actor.offer(6), "room again once the actor caught up");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of(1, 2, "task", 6), handled);
        }
    }

    @Test
    void theRuntimesOwnLettersAreNeverRefused() {
        List<Object> handled = new ArrayList<>();
        AtomicReference<Signal> signal = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ActorRef actor = runtime.spawn("bounded", SpawnOptions.DEFAULT.withMailboxCapacity(1), () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    signal.set(context.signal(SignalMode.MULTISHOT, (c, payload) -> handled.add("signal"), null));
                    context.delay(Duration.ofMillis(1), c -> handled.add("timer"));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    handled.add(message);
                }
            });
            runtime.drain();
            assertTrue(actor.tell("fills it"));
            assertEquals(Delivery.FULL, actor.offer("refused"));
            assertTrue(signal.get().fire(new byte[0]), "a signal firing into a full mailbox is still delivered");
            runtime.runUntilIdle(Duration.ofMillis(5)); // the timer comes due meanwhile
            assertEquals(List.of("fills it", "signal", "timer"), handled);
        }
    }

    @Test
    void aFullLaneRefusesForAllItsActors() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCapacity(2).build()) {
            ExecutionLane lane = runtime.registerLane("ui");
            ActorRef first = runtime.spawnOnLane("ui", "first", () -> (context, message) -> { });
            ActorRef second = runtime.spawnOnLane("ui", "second", () -> (context, message) -> { });
            assertEquals(DriveStatus.OK, lane.drive(0).status()); // both started
            assertEquals(Delivery.QUEUED, first.offer("a"));
            assertEquals(Delivery.QUEUED, second.offer("b"));
            assertEquals(Delivery.FULL, first.offer("c"), "the lane holds its two letters");
            assertEquals(Delivery.FULL, second.offer("d"));
            assertEquals(2, lane.refusedLetters());
            assertEquals(2, runtime.metrics().refusedLetters());
            DriveResult drained = lane.drive(0);
            assertEquals(2, drained.turns());
            assertEquals(Delivery.QUEUED, second.offer("e"));
        }
    }

    @Test
    void aHaltedActorAnswersTerminatedNotFull() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("gone", SpawnOptions.DEFAULT.withMailboxCapacity(1), () -> (context, message) -> { });
            runtime.drain();
            actor.kill();
            assertEquals(Delivery.TERMINATED, actor.offer("late"));
            assertEquals(0, runtime.metrics().refusedLetters());
        }
    }

    /** Many senders at once: the mailbox never holds more than its capacity (the check is part of each claim's CAS). */
    @Test
    void racingSendersNeverOverfillTheMailbox() throws InterruptedException {
        int senders = 4;
        long capacity = 64;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicLong handled = new AtomicLong();
            ActorRef actor = runtime.spawn("bounded", SpawnOptions.DEFAULT.withMailboxCapacity(capacity),
                    () -> (context, message) -> handled.incrementAndGet());
            runtime.drain();
            AtomicLong queued = new AtomicLong();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < senders; i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int n = 0; n < 10_000; n++) {
                        if (actor.offer(n) == Delivery.QUEUED) {
                            queued.incrementAndGet();
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(capacity, queued.get(), "nothing drains while they send: the mailbox fills, and no more");
            assertEquals(senders * 10_000L - queued.get(), runtime.metrics().refusedLetters(), "every letter queued or counted");
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(queued.get(), handled.get(), "every queued letter is handled");
        }
    }

    @Test
    void capacitiesMustBePositive() {
        assertEquals("a mailbox capacity must be at least 1; got 0",
                assertThrows(IllegalArgumentException.class, () -> SpawnOptions.DEFAULT.withMailboxCapacity(0)).getMessage());
        assertEquals("a lane capacity must be at least 1; got -1",
                assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.HOSTED).laneCapacity(-1)).getMessage());
        assertEquals("a mailbox capacity must be at least 1; got 0",
                assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.HOSTED).mailboxCapacity(0)).getMessage());
    }
}
