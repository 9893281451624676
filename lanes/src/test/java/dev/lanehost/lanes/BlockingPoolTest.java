package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.scheduler.HostedScheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** HOSTED's blocking threads: blocking turns hold no worker, receive(timeout), the bound, close. */
class BlockingPoolTest {
    private static final long PATIENCE_SECONDS = 30;

    @Test
    void aBlockedTurnHoldsUpNoWorker() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).build()) {
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<String> blockedOn = new AtomicReference<>();
            runtime.spawnBlocked("reader", () -> (context, message) -> {
                blockedOn.set(Thread.currentThread().getName());
                blocked.countDown();
                Latches.await(release); // a socket read, say
            }).tell("read");
            assertTrue(blocked.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            CountDownLatch normalRan = new CountDownLatch(1);
            runtime.spawn("normal", () -> (context, message) -> normalRan.countDown()).tell("go");
            assertTrue(normalRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the only worker was free");
            assertTrue(blockedOn.get().startsWith("lanehost-blocking-"), blockedOn.get());
            assertEquals(1, runtime.metrics().blockingActors());
            assertEquals(1, runtime.metrics().blockingThreads());
            release.countDown();
        }
    }

    @Test
    void receiveWaitsForTheNextMessageOnItsOwnThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            List<Object> received = new CopyOnWriteArrayList<>();
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            ActorRef session = runtime.spawnBlocked("session", () -> (context, first) -> {
                received.add(first);
                waiting.countDown();
                for (Object next; (next = context.receive(Duration.ofSeconds(PATIENCE_SECONDS))) != null; ) {
                    received.add(next);
                    if ("bye".equals(next)) {
                        break;
                    }
                }
                received.add(context.receive(Duration.ofMillis(1))); // nothing more: null at the timeout
                done.countDown();
            });
            assertTrue(session.tell("hello"));
            assertTrue(waiting.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertTrue(session.tell(1));
            assertTrue(session.tell(2));
            assertTrue(session.tell("bye"));
            assertTrue(done.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals(java.util.Arrays.asList("hello", 1, 2, "bye", null), received);
        }
    }

    /** A blocking actor that waits in {@code receive} for a long time, once it is told to: what it got, and when it returned. */
    private record Waiter(ActorRef ref, AtomicReference<Object> got, CountDownLatch returned) {
        static Waiter waiting(ActorRuntime runtime) throws InterruptedException {
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicReference<Object> got = new AtomicReference<>("unset");
            CountDownLatch returned = new CountDownLatch(1);
            ActorRef ref = runtime.spawnBlocked("waiter", () -> (context, message) -> {
                waiting.countDown();
                got.set(context.receive(Duration.ofSeconds(PATIENCE_SECONDS * 10)));
                returned.countDown();
            });
            ref.tell("wait");
            assertTrue(waiting.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            return new Waiter(ref, got, returned);
        }
    }

    @Test
    void aKillEndsAWaitingReceive() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            Waiter waiter = Waiter.waiting(runtime);
            assertTrue(waiter.ref().kill());
            assertTrue(waiter.returned().await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the kill woke the receive");
            assertNull(waiter.got().get());
        }
    }

    @Test
    void closeEndsAWaitingReceiveBeforeItReturnsAndTearsTheActorDown() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        Waiter waiter = Waiter.waiting(runtime);
        try (CapturedLog log = new CapturedLog()) {
            runtime.close();
            // Otherwise the receive parks again after the stop's wake-up, the stop's 5 s grace runs out with the
            // blocking thread inside its turn (logged), and only the halts after it end the receive.
            assertEquals(List.of(), log.matching(java.util.logging.Level.WARNING, "still inside a turn"),
                    "the stop ended the waiting receive: its thread left the turn within the grace");
        }
        assertEquals(0, waiter.returned().getCount(), "close woke the receive before it returned");
        assertNull(waiter.got().get());
        assertEquals(ExitReason.SHUTDOWN, waiter.ref().exitReason().orElseThrow());
        assertEquals(0, runtime.metrics().liveActors(), "torn down");
    }

    @Test
    void pastTheBoundRunnableBlockingActorsWaitForAFreeThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).blockingThreads(2).build()) {
            CountDownLatch twoBlocked = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch thirdRan = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                runtime.spawnBlocked("holder-" + i, () -> (context, message) -> {
                    twoBlocked.countDown();
                    Latches.await(release);
                }).tell("hold");
            }
            assertTrue(twoBlocked.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            ActorRef third = runtime.spawnBlocked("third", () -> (context, message) -> thirdRan.countDown());
            assertTrue(third.tell("run"));
            // Both threads are inside turns that wait for the release: the third actor cannot have a thread.
            assertEquals(2, runtime.metrics().blockingThreads());
            assertEquals(1, thirdRan.getCount());
            release.countDown();
            assertTrue(thirdRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "it ran once a thread was free");
            assertTrue(runtime.metrics().blockingThreads() <= 2);
        }
    }

    @Test
    void onlyBlockingActorsMayReceiveAndOnlyHostedHasBlockingThreads() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            runtime.spawn("normal", () -> (context, message) -> {
                try {
                    context.receive(Duration.ofMillis(1));
                } catch (IllegalStateException e) {
                    refused.set(e);
                }
                done.countDown();
            }).tell("try");
            assertTrue(done.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertTrue(refused.get().getMessage().contains("spawnBlocked"), String.valueOf(refused.get()));
        }
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> runtime.spawnBlocked("x", () -> (c, m) -> { }));
            assertTrue(thrown.getMessage().contains("HOSTED"), thrown.getMessage());
            assertEquals(ResourceCounts.NONE, runtime.resources());
        }
        assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.HOSTED).blockingThreads(0));
    }

    @Test
    void closeEndsEveryBlockingThread() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            runtime.spawnBlocked("b" + i, () -> (context, message) -> ran.countDown()).tell("run");
        }
        assertTrue(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        List<Thread> threads = ((HostedScheduler) runtime.scheduler).blockingThreadsForTest();
        assertFalse(threads.isEmpty());
        runtime.close();
        for (Thread thread : threads) {
            assertFalse(thread.isAlive(), thread.getName() + " ended with the runtime");
        }
        assertEquals(ResourceCounts.NONE, runtime.resources());
        assertEquals(0, runtime.metrics().blockingActors());
    }
}
