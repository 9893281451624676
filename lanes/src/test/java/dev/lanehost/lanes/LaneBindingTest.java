package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.lane.LaneBinding;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** Lanes that follow a host whose callback thread restarts: rebinding, release and bind, from real threads. */
class LaneBindingTest {
    private static final long PATIENCE_SECONDS = 30;

    /** Runs on a new platform thread that has ended when this returns. */
    private static <T> T onNewThread(String name, Callable<T> work) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().name(name).start(() -> {
            try {
                result.set(work.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        thread.join();
        if (failure.get() != null) {
            throw failure.get();
        }
        return result.get();
    }

    @Test
    void aLaneWhoseThreadEndedRebindsToTheNextDriverAndItsQueuedLettersRunThere() throws Exception {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            List<String> ran = new CopyOnWriteArrayList<>();
            ActorRef synth = runtime.spawnOnLane("audio", "synth",
                    () -> (context, message) -> ran.add(message + "@" + Thread.currentThread().getName()));
            synth.tell("a1");
            assertEquals(new DriveResult(DriveStatus.OK, 2, 0), onNewThread("host-A", () -> lane.drive(0)));
            assertEquals("host-A", lane.boundThread().getName());
            assertTrue(!lane.boundThread().isAlive(), "host A has ended; the lane still names it");

            synth.tell("b1"); // queued while the lane's thread is gone
            synth.tell("b2");
            assertEquals(2, lane.queuedLetters());
            assertEquals(new DriveResult(DriveStatus.OK, 2, 0), onNewThread("host-B", () -> lane.drive(0)));

            assertEquals(List.of("a1@host-A", "b1@host-B", "b2@host-B"), ran);
            assertEquals(1, lane.rebinds());
            assertEquals(1, runtime.snapshot().lanes().get(0).rebinds());
            assertEquals("host-B", runtime.snapshot().lanes().get(0).boundThread());
            assertEquals(1, log.matching(Level.INFO, "lane 'audio' rebound", "host-A", "host-B").size());
        }
    }

    @Test
    void aThreadThatReleasedTheLaneBindsItAgainOnItsNextDriveEvenWithNothingQueued() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            Thread host = onNewThread("host-A", () -> {
                lane.drive(0);
                lane.release();
                DriveResult again = lane.drive(0); // an empty lane: the drive's shortest path
                return again.status() == DriveStatus.OK ? lane.boundThread() : null;
            });
            assertEquals("host-A", host == null ? null : host.getName(), "bound again by the drive after its release");
            assertEquals(1, lane.rebinds());
        }
    }

    @Test
    void aLiveBoundThreadIsNeverDisplacedButMayReleaseTheLane() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCloseGrace(java.time.Duration.ZERO).build()) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef sprite = runtime.spawnOnLane("frame", "sprite", () -> (c, m) -> { });
            ExecutorService hostA = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-A"));
            try {
                Callable<DriveResult> driveOnA = () -> lane.drive(0);
                assertEquals(DriveStatus.OK, hostA.submit(driveOnA).get().status());
                assertEquals(DriveStatus.OK, hostA.submit(lane::bind).get(), "bind by the bound thread");

                sprite.tell("x");
                assertEquals(new DriveResult(DriveStatus.WRONG_THREAD, 0, 1),
                        onNewThread("host-B", () -> lane.drive(0)), "host A is alive: B is refused");
                assertEquals(DriveStatus.WRONG_THREAD, onNewThread("host-B", lane::bind));
                assertEquals(DriveStatus.WRONG_THREAD, onNewThread("host-B", lane::release), "only the bound thread releases");
                assertEquals(0, lane.rebinds());

                assertEquals(DriveStatus.OK, hostA.submit(lane::release).get());
                assertNull(lane.boundThread());
                assertEquals(1, lane.queuedLetters(), "a release keeps the letters queued");

                CountDownLatch bBound = new CountDownLatch(1);
                CountDownLatch bMayEnd = new CountDownLatch(1);
                AtomicReference<DriveResult> bDrove = new AtomicReference<>();
                Thread hostB = Thread.ofPlatform().name("host-B").start(() -> {
                    if (lane.bind() == DriveStatus.OK) {
                        bDrove.set(lane.drive(0));
                        bBound.countDown();
                        try {
                            bMayEnd.await();
                        } catch (InterruptedException ignored) {
                            // ends
                        }
                    }
                });
                assertTrue(bBound.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "B bound the released lane");
                assertEquals(new DriveResult(DriveStatus.OK, 1, 0), bDrove.get());
                assertSame(hostB, lane.boundThread());
                assertEquals(1, lane.rebinds());
                assertEquals(DriveStatus.WRONG_THREAD, hostA.submit(driveOnA).get().status(), "now A is the other thread");
                bMayEnd.countDown();
                hostB.join();
                assertEquals(DriveStatus.OK, hostA.submit(driveOnA).get().status(), "B ended: A takes the lane back");
                assertEquals(2, lane.rebinds());
            } finally {
                hostA.shutdownNow();
            }
        }
    }

    @Test
    void aReleasedLaneLeftToAThreadThatIsNotAliveIsReboundByTheNextDriverAsFromAnEndedThread() throws Exception {
        LaneBinding binding = new LaneBinding("audio", true, () -> 3);
        assertTrue(binding.acquire(Thread.currentThread()));
        binding.release(Thread.currentThread());
        Thread ended = Thread.ofPlatform().name("host-gone").unstarted(() -> { });
        binding.leaveBoundTo(ended);
        assertSame(ended, binding.boundThread());

        long[] nextId = new long[1];
        assertTrue(onNewThread("host-next", () -> {
            nextId[0] = Thread.currentThread().threadId();
            return binding.acquire(Thread.currentThread());
        }));
        assertEquals(1, binding.rebinds());
        assertEquals("lane 'audio' rebound from thread host-gone #" + ended.threadId() + " (ended) to host-next #" + nextId[0]
                + "; 3 letter(s) queued carried over", binding.takeUnloggedRebind());
        assertNull(binding.takeUnloggedRebind(), "logged once");
    }

    /** A host that releases its lane after every buffer and binds it again on the same thread logs nothing. */
    @Test
    void aThreadThatBindsALaneItReleasedAgainIsCountedButNotLogged() throws Exception {
        LaneBinding binding = new LaneBinding("audio", true, () -> 2);
        Thread current = Thread.currentThread();
        assertTrue(binding.acquire(current));
        for (int buffer = 0; buffer < 3; buffer++) {
            binding.release(current);
            assertTrue(binding.acquire(current));
            assertNull(binding.takeUnloggedRebind(), "buffer " + buffer);
        }
        assertEquals(3, binding.rebinds());
        binding.release(current);
        long[] otherId = new long[1];
        assertTrue(onNewThread("streaming-2", () -> {
            otherId[0] = Thread.currentThread().threadId();
            boolean bound = binding.acquire(Thread.currentThread());
            binding.release(Thread.currentThread());
            return bound;
        }));
        assertEquals("lane 'audio' rebound from thread " + current.getName() + " #" + current.threadId() + " (released) to "
                + "streaming-2 #" + otherId[0] + "; 2 letter(s) queued carried over", binding.takeUnloggedRebind(),
                "a move to another thread is logged");
        assertTrue(binding.acquire(current));
        assertEquals("lane 'audio' rebound from thread streaming-2 #" + otherId[0] + " (released) to " + current.getName()
                + " #" + current.threadId() + "; 2 letter(s) queued carried over", binding.takeUnloggedRebind(),
                "and the move back");
    }

    @Test
    void onlyAnUnboundLaneCanBeLeftToAThreadAndOnlyToOneThatIsNotAlive() throws Exception {
        LaneBinding binding = new LaneBinding("audio", true, () -> 0);
        IllegalStateException alive = assertThrows(IllegalStateException.class, () -> binding.leaveBoundTo(Thread.currentThread()));
        assertTrue(alive.getMessage().contains("not alive"), alive.getMessage());
        assertTrue(binding.acquire(Thread.currentThread()));
        Thread ended = Thread.ofPlatform().unstarted(() -> { });
        assertThrows(IllegalStateException.class, () -> binding.leaveBoundTo(ended), "the lane is bound");
        assertSame(Thread.currentThread(), binding.boundThread());
    }

    @Test
    void releaseInsideADriveIsReentrant() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            AtomicReference<DriveStatus> inside = new AtomicReference<>();
            runtime.spawnOnLane("audio", "releaser", () -> (c, m) -> inside.set(lane.release())).tell("go");
            onNewThread("host", () -> lane.drive(0));
            assertEquals(DriveStatus.REENTRANT, inside.get());
        }
    }

    @Test
    void afterCloseBindReleaseAndDriveAnswerClosedOnEveryThread() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ExecutionLane lane = runtime.registerLane("audio");
        ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host"));
        try {
            assertEquals(DriveStatus.OK, host.submit(lane::bind).get());
            runtime.close();
            assertEquals(DriveStatus.CLOSED, host.submit(lane::bind).get());
            assertEquals(DriveStatus.CLOSED, host.submit(lane::release).get());
            assertEquals(DriveStatus.CLOSED, host.submit(() -> lane.drive(0)).get().status());
            DriveCounts counts = new DriveCounts();
            assertEquals(DriveStatus.CLOSED.code(), (int) host.submit(() -> lane.drive(0, counts)).get());
            assertEquals(DriveStatus.CLOSED, onNewThread("other", lane::bind));
            assertEquals(DriveStatus.CLOSED, onNewThread("other", lane::release));
            assertEquals(DriveStatus.CLOSED, onNewThread("other", () -> lane.drive(0)).status());
        } finally {
            host.shutdownNow();
        }
    }

    @Test
    void theAllocationFreeDriveReportsTurnsAndLettersLeft() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef actor = runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            for (int i = 0; i < 4; i++) {
                actor.tell(i);
            }
            DriveCounts counts = new DriveCounts();
            assertEquals(DriveStatus.OK.code(), (int) onNewThread("host", () -> lane.drive(2, counts)));
            assertEquals(2, counts.turns());
            assertEquals(3, counts.remaining());
            assertEquals(DriveStatus.INVALID_ARGUMENT.code(), lane.drive(-1, counts));
            assertEquals(DriveStatus.INVALID_ARGUMENT.code(), lane.drive(-1, null));
            // No counts wanted: the drive runs all the same and stores nothing.
            assertEquals(DriveStatus.OK.code(), (int) onNewThread("host", () -> lane.drive(0, null)));
            assertEquals(0, lane.queuedLetters());
        }
    }
}
