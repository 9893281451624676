package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TurnTaskTest {

    @Test
    void aSubmittedTaskRunsAsATurnOnTheActorsLane() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("ui");
            ActorRef actor = runtime.spawnOnLane("ui", "view", () -> (c, m) -> { });
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            AtomicReference<ActorRef> self = new AtomicReference<>();
            actor.submit(context -> {
                ranOn.set(Thread.currentThread());
                self.set(context.self());
            });
            Thread host = Thread.ofPlatform().start(() -> lane.drive(0));
            host.join();
            assertEquals(host, ranOn.get());
            assertEquals(actor, self.get());
        }
    }

    @Test
    void aFailingTaskHaltsTheActorByTheNormalRules() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            actor.submit(context -> {
                throw new IllegalStateException("task failed");
            });
            runtime.runUntilIdle(Duration.ZERO);
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
            assertFalse(actor.submit(context -> { }), "a halted actor takes no task");
        }
    }

    @Test
    void aTaskStillQueuedWhenItsActorHaltsIsAbandonedOnce() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            AtomicInteger abandoned = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            actor.submit(new TurnTask() {
                @Override
                public void run(ActorContext context) {
                    ran.incrementAndGet();
                }

                @Override
                public void abandoned() {
                    abandoned.incrementAndGet();
                }
            });
            actor.kill();
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, ran.get());
            assertEquals(1, abandoned.get());
        }
    }

    @Test
    void thePlacementThreadIsTheOneRunningTheActorsTurns() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<Boolean> insideTurn = new ArrayList<>();
            ActorRef normal = runtime.spawn("n", () -> (context, m) -> insideTurn.add(context.self().isPlacementThread()));
            normal.tell("x");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of(true), insideTurn);
            assertFalse(normal.isPlacementThread(), "nobody is draining now");

            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef onLane = runtime.spawnOnLane("audio", "l", () -> (c, m) -> { });
            assertFalse(onLane.isPlacementThread(), "unbound lane");
            AtomicReference<Boolean> fromHost = new AtomicReference<>();
            Thread host = Thread.ofPlatform().start(() -> {
                lane.drive(0);
                fromHost.set(onLane.isPlacementThread());
            });
            host.join();
            assertTrue(fromHost.get());
            assertFalse(onLane.isPlacementThread());
        }
        try (ActorRuntime hosted = ActorRuntime.create(Profile.HOSTED)) {
            AtomicReference<Boolean> onWorker = new AtomicReference<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            ActorRef actor = hosted.spawn("w", () -> (context, m) -> {
                onWorker.set(context.self().isPlacementThread());
                done.countDown();
            });
            actor.tell("x");
            assertTrue(done.await(30, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(onWorker.get());
            assertFalse(actor.isPlacementThread());
        }
    }
}
