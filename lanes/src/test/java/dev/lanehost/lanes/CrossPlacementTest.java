package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Messages, monitors and links work the same between normal, pinned, blocking and lane actors. */
class CrossPlacementTest {
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void monitorsLinksAndMessagesCrossEveryPlacement() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            ExecutionLane lane = runtime.registerLane("frame");
            Map<Long, Down> downs = new ConcurrentHashMap<>();
            Set<String> relayed = ConcurrentHashMap.newKeySet();
            CountDownLatch relayDone = new CountDownLatch(1);

            ActorRef onLane = runtime.spawnOnLane("frame", "on-lane", () -> (context, message) -> {
                relayed.add("lane:" + Thread.currentThread().getName());
                relayDone.countDown();
            });
            ActorRef blocking = runtime.spawnBlocked("blocking", () -> (context, message) -> {
                relayed.add("blocking:" + Thread.currentThread().getName());
                onLane.tell(message); // blocking → lane
            });
            ActorRef pinned = runtime.spawnPinned(1, "pinned", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.link(blocking); // pinned ⟷ blocking: a blocking actor's end ends this one
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    relayed.add("pinned:" + Thread.currentThread().getName());
                    blocking.tell(message); // pinned → blocking
                }
            });
            ActorRef watcher = runtime.spawn("watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(onLane);
                    context.monitor(blocking);
                    context.monitor(pinned);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    if (message instanceof Down down) {
                        downs.put(down.actor().id(), down);
                    } else {
                        pinned.tell(message); // normal → pinned
                    }
                }
            });
            assertTrue(watcher.tell("relay"));
            driveUntil(lane, relayDone);
            assertEquals(Set.of("pinned:lanehost-worker-1", "lane:" + Thread.currentThread().getName()),
                    Set.of(relayed.stream().filter(s -> !s.startsWith("blocking")).toArray(String[]::new)));
            assertTrue(relayed.stream().anyMatch(s -> s.startsWith("blocking:lanehost-blocking-")), relayed.toString());

            // Kill the blocking actor (its link ends the pinned one) and the lane actor; the watcher sees all three.
            assertTrue(blocking.kill());
            assertTrue(onLane.kill());
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (downs.size() < 3 && System.nanoTime() < deadline) {
                lane.drive(0); // the lane actor's teardown runs on its lane thread: this one
                Thread.onSpinWait();
            }
            assertEquals(3, downs.size(), downs.toString());
            assertInstanceOf(ExitReason.Killed.class, downs.get(blocking.id()).reason());
            assertInstanceOf(ExitReason.Killed.class, downs.get(onLane.id()).reason());
            assertInstanceOf(ExitReason.Linked.class, downs.get(pinned.id()).reason(), "the link crossed from blocking to pinned");
        }
    }

    private static void driveUntil(ExecutionLane lane, CountDownLatch latch) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (latch.getCount() > 0 && System.nanoTime() < deadline) {
            lane.drive(0);
            latch.await(1, TimeUnit.MILLISECONDS);
        }
        assertTrue(latch.getCount() == 0, "done before the deadline");
    }
}
