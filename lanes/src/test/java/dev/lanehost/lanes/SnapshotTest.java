package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SnapshotTest {

    @Test
    void aSnapshotNeverWaitsOnABusyActorAndCountsIdleOnesExactly() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            CountDownLatch inTurn = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ActorRef busy = runtime.spawnOnLane("audio", "busy", () -> (context, message) -> {
                inTurn.countDown();
                release.await(); // a long turn, held open by the test
            });
            ActorRef waiting = runtime.spawn("waiting", () -> (context, message) -> { });
            runtime.drain(); // waiting's start
            for (int i = 0; i < 3; i++) {
                waiting.tell(i);
            }
            busy.tell("block");
            busy.tell("queued behind");
            Thread host = Thread.ofPlatform().name("host").start(() -> lane.drive(0));
            assertTrue(inTurn.await(30, TimeUnit.SECONDS));

            Snapshot snapshot = runtime.snapshot(); // must return while busy's turn is running

            Snapshot.ActorRow busyRow = row(snapshot, busy);
            assertEquals(Snapshot.ActorState.RUNNING, busyRow.state());
            assertEquals(1, busyRow.queueDepth(), "a busy actor's mailbox is counted without its turn lock");
            assertTrue(busyRow.currentTurnNanos() > 0);
            assertEquals("lane(audio)", busyRow.placement());
            Snapshot.ActorRow waitingRow = row(snapshot, waiting);
            assertEquals(Snapshot.ActorState.READY, waitingRow.state());
            assertEquals(3, waitingRow.queueDepth());
            assertEquals(1, waitingRow.turns());

            Snapshot.LaneRow laneRow = snapshot.lanes().get(0);
            assertEquals("audio", laneRow.name());
            assertEquals("host", laneRow.boundThread());
            assertEquals(List.of(0L, 0L, 0L, 0L), laneRow.bandDepths(), "busy was polled; it is running, not queued");
            assertEquals(3, laneRow.queuedLetters(), "the drive in progress settles its count when it returns: start, 'block', 'queued behind'");
            assertEquals(-1, laneRow.nanosSinceWorkDrive(), "the only drive is still running; work drives are stamped when they end");

            String text = snapshot.render();
            assertTrue(text.contains("busy") && text.contains("RUNNING") && text.contains("waiting"), text);
            assertTrue(text.contains("audio") && text.contains("host"), text);

            release.countDown();
            host.join();
            Snapshot after = runtime.snapshot();
            assertEquals(Snapshot.ActorState.IDLE, row(after, busy).state());
            assertEquals(0, row(after, busy).queueDepth());
            assertEquals(3, row(after, busy).turns());
            assertEquals(0, after.lanes().get(0).queuedLetters());
        }
    }

    private static Snapshot.ActorRow row(Snapshot snapshot, ActorRef actor) {
        return snapshot.actors().stream().filter(r -> r.id() == actor.id()).findFirst().orElseThrow();
    }
}
