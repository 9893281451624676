package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Runtime close against lanes driven by real host threads. */
class CloseTest {
    private static final long PATIENCE_SECONDS = 30;

    @Test
    void aDriveAndASnapshotDoNotWaitOnAStoppedHookTheClosingThreadIsRunning() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ExecutionLane lane = runtime.registerLane("gl");
        CountDownLatch inStopped = new CountDownLatch(1);
        CountDownLatch releaseStopped = new CountDownLatch(1);
        CountDownLatch inLongTurn = new CountDownLatch(1);
        CountDownLatch releaseLongTurn = new CountDownLatch(1);
        CountDownLatch driveReturned = new CountDownLatch(1);
        // Spawned first, so the closing thread reaches it first: its stopped() blocks on the closing thread.
        runtime.spawnOnLane("gl", "slow-to-stop", () -> new Behavior() {
            @Override
            public void receive(ActorContext context, Object message) {
            }

            @Override
            public void stopped(ActorContext context, ExitReason reason) throws InterruptedException {
                inStopped.countDown();
                releaseStopped.await();
            }
        });
        ActorRef longTurn = runtime.spawnOnLane("gl", "long-turn", () -> (context, message) -> {
            inLongTurn.countDown();
            releaseLongTurn.await();
        });
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Thread host = Thread.ofPlatform().name("host").start(() -> {
            lane.drive(0); // both starts
            started.countDown();
            try {
                go.await();
            } catch (InterruptedException e) {
                return;
            }
            lane.drive(0); // the long turn, then whatever the close left on the lane
            driveReturned.countDown();
        });
        assertTrue(started.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        longTurn.tell("hold the lane");
        go.countDown();
        assertTrue(inLongTurn.await(PATIENCE_SECONDS, TimeUnit.SECONDS));

        Thread closer = Thread.ofPlatform().name("closer").start(runtime::close);
        assertTrue(inStopped.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the closing thread tears the lane down");

        Snapshot snapshot = runtime.snapshot(); // returns although a stopped() hook holds an actor's teardown
        assertEquals(2, snapshot.actors().size());
        releaseLongTurn.countDown();
        assertTrue(driveReturned.await(PATIENCE_SECONDS, TimeUnit.SECONDS),
                "the drive went on past the actor whose stopped() hook is running on the closing thread");
        assertFalse(releaseStopped.getCount() == 0, "the hook was still running when the drive returned");

        releaseStopped.countDown();
        closer.join();
        host.join();
        assertEquals(ResourceCounts.NONE, runtime.resources());
    }
}
