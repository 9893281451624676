package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** Runtime close against lanes driven by real host threads. */
class CloseTest {
    private static final long PATIENCE_SECONDS = 30;

    /** Records the thread each piece of its teardown ran on: stopped, a signal's and a park's release hook, its arena's close. */
    static final class ThreadAffineActor implements Behavior {
        final Map<String, Thread> teardownThreads;

        ThreadAffineActor(Map<String, Thread> teardownThreads) {
            this.teardownThreads = teardownThreads;
        }

        @Override
        public void started(ActorContext context) {
            context.signal(SignalMode.MULTISHOT, (c, p) -> { }, () -> teardownThreads.put("signal hook", Thread.currentThread()));
            context.park((ParkCallback<Object>) (c, v) -> { }, () -> teardownThreads.put("park hook", Thread.currentThread()));
            // A cleanup action runs when the arena closes, on the thread that closes it.
            MemorySegment.NULL.reinterpret(8, context.arena(), segment -> teardownThreads.put("arena", Thread.currentThread()));
        }

        @Override
        public void receive(ActorContext context, Object message) {
        }

        @Override
        public void stopped(ActorContext context, ExitReason reason) {
            teardownThreads.put("stopped", Thread.currentThread());
        }
    }

    private static void assertAllOn(Thread expected, Map<String, Thread> teardownThreads) {
        assertEquals(4, teardownThreads.size(), teardownThreads.toString());
        teardownThreads.forEach((what, thread) -> assertEquals(expected, thread, what + " ran on " + thread.getName()));
    }

    @Test
    void closeFromAnActorsOwnTurnDoesNotWaitForThatTurnAndItsRunnerTearsTheActorDown() throws Exception {
        // A grace longer than the test: a close that waited for the turn it is called from would hang here.
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnCloseGrace(Duration.ofHours(1)).build();
        CountDownLatch closed = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicReference<Thread> stoppedOn = new AtomicReference<>();
        AtomicReference<Thread> turnOn = new AtomicReference<>();
        ActorRef actor = runtime.spawn("closer", () -> new Behavior() {
            @Override
            public void receive(ActorContext context, Object message) {
                turnOn.set(Thread.currentThread());
                runtime.close();
                closed.countDown();
            }

            @Override
            public void stopped(ActorContext context, ExitReason reason) {
                stoppedOn.set(Thread.currentThread());
                stopped.countDown();
            }
        });
        assertTrue(actor.tell("close"));
        assertTrue(closed.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "close() from the turn waited for that turn");
        runtime.close(); // idempotent: waits for the first close to finish (inside the turn, so not for the teardown)
        assertTrue(stopped.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the actor was torn down once its turn returned");
        assertEquals(ExitReason.SHUTDOWN, actor.exitReason().orElseThrow());
        assertEquals(turnOn.get(), stoppedOn.get(), "torn down by its runner once the turn returned");
    }

    @Test
    void closeFromATurnTearsDownTheActorItsWorkerKeepsWithItsTurnLock() throws Exception {
        // One worker that never parks, so the actor it ran last stays kept (with its turn lock) while the closer runs.
        // A grace longer than the test: a close that waited for the kept actor's lock would hang here.
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).idleStrategy(IdleStrategy.busySpin())
                .turnCloseGrace(Duration.ofHours(1)).build();
        CountDownLatch ran = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        ActorRef kept = runtime.spawn("kept", () -> new Behavior() {
            @Override
            public void receive(ActorContext context, Object message) {
                ran.countDown();
            }

            @Override
            public void stopped(ActorContext context, ExitReason reason) {
                stopped.countDown();
            }
        });
        ActorRef closer = runtime.spawn("closer", () -> (context, message) -> {
            runtime.close();
            closed.countDown();
        });
        assertTrue(kept.tell("run once"));
        assertTrue(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        assertTrue(closer.tell("close"));
        assertTrue(closed.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "close() from the turn waited for the kept actor's lock");
        assertTrue(stopped.await(0, TimeUnit.SECONDS), "the kept actor was torn down by the close");
        assertEquals(ExitReason.SHUTDOWN, kept.exitReason().orElseThrow());
    }

    @Test
    void afterCloseTheQueueMetricsReadZeroAsTheResourceCountsDo() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        CountDownLatch started = new CountDownLatch(6);
        for (int i = 0; i < 6; i++) {
            runtime.spawn("idle-" + i, () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    started.countDown();
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
        }
        assertTrue(started.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        runtime.close(); // queues every actor for its teardown on workers that have stopped
        assertEquals(0, runtime.metrics().liveActors());
        assertEquals(0, runtime.metrics().normalQueued(), "nothing is queued to run on a closed runtime");
        runtime.metrics().workers().forEach(worker -> {
            assertEquals(0, worker.normalQueued(), worker.toString());
            assertEquals(0, worker.pinnedQueued(), worker.toString());
        });
    }

    @Test
    void aTaskSentWhileTheRuntimeClosesIsRunOrAbandonedNeverStranded() throws Exception {
        for (int round = 0; round < 300; round++) {
            ActorRuntime runtime = ActorRuntime.create(round % 2 == 0 ? Profile.SINGLE_THREAD : Profile.HOSTED);
            ActorRef actor = runtime.spawn("target", () -> (c, m) -> { });
            CountDownLatch ended = new CountDownLatch(1);
            TurnTask task = new TurnTask() {
                @Override
                public void run(ActorContext context) {
                    ended.countDown();
                }

                @Override
                public void abandoned() {
                    ended.countDown();
                }
            };
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<Boolean> queued = new AtomicReference<>();
            Thread sender = Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                queued.set(actor.submit(task));
            });
            go.countDown();
            runtime.close();
            sender.join();
            if (queued.get()) {
                assertTrue(ended.await(PATIENCE_SECONDS, TimeUnit.SECONDS),
                        "round " + round + ": a task queued as the runtime closed neither ran nor was abandoned");
            }
        }
    }

    @Test
    void aLaneWhoseHostDrivesAfterCloseIsTornDownOnTheHostThread() throws Exception {
        CountDownLatch closeBegan = new CountDownLatch(1);
        RuntimeObserver observer = new RuntimeObserver() {
            @Override
            public void haltStep(ActorRef actor, HaltStep step) {
                if (step == HaltStep.REGISTRY) {
                    closeBegan.countDown();
                }
            }
        };
        ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).observer(observer)
                .laneCloseGrace(Duration.ofSeconds(PATIENCE_SECONDS)).build();
        ExecutionLane lane = runtime.registerLane("gl");
        Map<String, Thread> teardownThreads = new ConcurrentHashMap<>();
        runtime.spawnOnLane("gl", "context-owner", () -> new ThreadAffineActor(teardownThreads));
        List<Integer> statuses = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        Thread host = Thread.ofPlatform().name("frame-loop").start(() -> {
            DriveCounts counts = new DriveCounts();
            statuses.add(lane.drive(0, counts)); // the start: the actor's resources are made here
            started.countDown();
            try {
                closeBegan.await();
            } catch (InterruptedException e) {
                return;
            }
            statuses.add(lane.drive(0, counts)); // the next frame: runs the pending teardown, then CLOSED
            statuses.add(lane.drive(0, counts));
        });

        assertTrue(started.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        CloseReport report = runtime.closeAndReport(); // waits for the host's next drive

        host.join();
        assertEquals(List.of(DriveStatus.OK.code(), DriveStatus.CLOSED.code(), DriveStatus.CLOSED.code()), statuses);
        assertAllOn(host, teardownThreads);
        assertEquals(LaneTeardown.TORN_DOWN_ON_LANE_THREAD, report.lane("gl"));
        assertTrue(report.allOnLaneThreads());
        assertEquals(ResourceCounts.NONE, runtime.resources());
        assertEquals(report, runtime.lastCloseReport());
        assertEquals(report, runtime.closeAndReport(), "idempotent");
    }

    @Test
    void aDriveThatComesBeforeCloseHasHaltedTheActorsStillTearsTheLaneDownOnItsThread() throws Exception {
        // HOSTED close halts the lane's actors, then stops the worker before it halts the others; a worker stuck in a
        // turn holds close there, after the runtime already answers CLOSED, while the lane's host keeps driving.
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).laneCloseGrace(Duration.ofSeconds(PATIENCE_SECONDS)).build();
        ExecutionLane lane = runtime.registerLane("gl");
        Map<String, Thread> teardownThreads = new ConcurrentHashMap<>();
        runtime.spawnOnLane("gl", "context-owner", () -> new ThreadAffineActor(teardownThreads));
        CountDownLatch workerBusy = new CountDownLatch(1);
        CountDownLatch releaseWorker = new CountDownLatch(1);
        ActorRef blocker = runtime.spawn("blocker", () -> (context, message) -> {
            workerBusy.countDown();
            releaseWorker.await();
        });
        blocker.tell("hold the worker");
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<DriveStatus> afterClose = new AtomicReference<>();
        AtomicBoolean blockerHaltedFirst = new AtomicBoolean();
        Thread host = Thread.ofPlatform().name("frame-loop").start(() -> {
            lane.drive(0);
            started.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (!runtime.isClosed() && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // a frame loop: the next frame comes once close has begun
            }
            afterClose.set(lane.drive(0).status()); // close is still stopping the worker
            // Close halts the worker's actors only once the worker has stopped (its turn returned, or its 5 s grace
            // ran out): a drive that waited for that would hold the host's frame for as long.
            blockerHaltedFirst.set(blocker.isTerminated());
            releaseWorker.countDown();
        });
        assertTrue(started.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        assertTrue(workerBusy.await(PATIENCE_SECONDS, TimeUnit.SECONDS));

        CloseReport report = runtime.closeAndReport();

        host.join();
        assertEquals(DriveStatus.CLOSED, afterClose.get());
        assertFalse(blockerHaltedFirst.get(), "the drive came back while close was still stopping the worker");
        assertAllOn(host, teardownThreads);
        assertEquals(LaneTeardown.TORN_DOWN_ON_LANE_THREAD, report.lane("gl"));
        assertEquals(ResourceCounts.NONE, runtime.resources());
    }

    @Test
    void lanesNoHostWillDriveAreTornDownOnTheClosingThreadAndEachIsReported() throws Exception {
        try (CapturedLog log = new CapturedLog()) {
            ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCloseGrace(Duration.ofMillis(20)).build();
            Map<String, Map<String, Thread>> threads = new ConcurrentHashMap<>();
            Map<String, ExecutionLane> lanes = new ConcurrentHashMap<>();
            for (String name : List.of("never-bound", "ended", "idle", "released")) {
                lanes.put(name, runtime.registerLane(name));
                threads.put(name, new ConcurrentHashMap<>());
                runtime.spawnOnLane(name, name + "-actor", () -> new ThreadAffineActor(threads.get(name)));
            }
            runtime.registerLane("empty");
            Thread ended = Thread.ofPlatform().start(() -> lanes.get("ended").drive(0));
            ended.join();
            CountDownLatch idleStarted = new CountDownLatch(1);
            CountDownLatch idleMayEnd = new CountDownLatch(1);
            Thread idle = Thread.ofPlatform().start(() -> {
                lanes.get("idle").drive(0);
                idleStarted.countDown();
                try {
                    idleMayEnd.await(); // alive, but never drives again
                } catch (InterruptedException ignored) {
                    // ends
                }
            });
            Thread released = Thread.ofPlatform().start(() -> {
                lanes.get("released").drive(0);
                lanes.get("released").release();
            });
            released.join();
            assertTrue(idleStarted.await(PATIENCE_SECONDS, TimeUnit.SECONDS));

            CloseReport report = runtime.closeAndReport();

            idleMayEnd.countDown();
            idle.join();
            assertEquals(LaneTeardown.NEVER_BOUND, report.lane("never-bound"));
            assertEquals(LaneTeardown.THREAD_ENDED, report.lane("ended"));
            assertEquals(LaneTeardown.GRACE_EXPIRED, report.lane("idle"));
            assertEquals(LaneTeardown.RELEASED, report.lane("released"));
            assertEquals(LaneTeardown.NO_ACTORS, report.lane("empty"));
            assertFalse(report.allOnLaneThreads());
            for (String name : List.of("ended", "idle", "released")) {
                assertAllOn(Thread.currentThread(), threads.get(name));
                assertEquals(1, log.matching(Level.WARNING, "lane '" + name + "'", "torn down on the closing thread").size(), name);
            }
            assertEquals(Map.of(), threads.get("never-bound"), "never started: none of its code ran anywhere");
            assertEquals(1, log.matching(Level.INFO, "lane 'never-bound'", "never bound").size());
            assertEquals(ResourceCounts.NONE, runtime.resources());
        }
    }

    @Test
    void closeOnALanesOwnThreadTearsThatLaneDownThere() throws Exception {
        ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCloseGrace(Duration.ofSeconds(PATIENCE_SECONDS)).build();
        ExecutionLane lane = runtime.registerLane("audio");
        Map<String, Thread> teardownThreads = new ConcurrentHashMap<>();
        runtime.spawnOnLane("audio", "synth", () -> new ThreadAffineActor(teardownThreads));
        AtomicReference<CloseReport> report = new AtomicReference<>();
        Thread host = Thread.ofPlatform().name("host").start(() -> {
            lane.drive(0);
            report.set(runtime.closeAndReport());
        });
        host.join();
        assertEquals(LaneTeardown.CLOSED_ON_LANE_THREAD, report.get().lane("audio"));
        assertAllOn(host, teardownThreads);
        assertEquals(ResourceCounts.NONE, runtime.resources());
    }

    @Test
    void closeFromInsideALaneTurnTearsTheLaneDownWhenTheTurnReturns() throws Exception {
        ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCloseGrace(Duration.ofSeconds(PATIENCE_SECONDS)).build();
        ExecutionLane lane = runtime.registerLane("audio");
        Map<String, Thread> teardownThreads = new ConcurrentHashMap<>();
        runtime.spawnOnLane("audio", "synth", () -> new ThreadAffineActor(teardownThreads));
        AtomicReference<CloseReport> report = new AtomicReference<>();
        ActorRef closer = runtime.spawnOnLane("audio", "closer", () -> (context, message) -> report.set(runtime.closeAndReport()));
        AtomicReference<DriveResult> drove = new AtomicReference<>();
        Thread host = Thread.ofPlatform().name("host").start(() -> {
            lane.drive(0);
            closer.tell("close");
            drove.set(lane.drive(0));
        });
        host.join();
        assertEquals(LaneTeardown.CLOSED_ON_LANE_THREAD, report.get().lane("audio"));
        assertEquals(DriveStatus.CLOSED, drove.get().status());
        assertAllOn(host, teardownThreads);
        assertEquals(ResourceCounts.NONE, runtime.resources());
    }

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

    @Test
    void everyActorASpawnRacingTheCloseMadeIsHaltedByTheTimeCloseReturns() throws Exception {
        // A spawn looked at the closed mark, the close took its list of actors, then the spawn registered its actor:
        // nothing halted that one, and it stayed alive after close, accepting letters nothing would run.
        for (Placement placement : List.of(Placement.NORMAL, Placement.lane("l"), Placement.BLOCKING)) {
            for (int round = 0; round < 25; round++) {
                ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
                runtime.registerLane("l");
                List<ActorRef> spawned = new java.util.concurrent.CopyOnWriteArrayList<>();
                CountDownLatch spawning = new CountDownLatch(2);
                List<Thread> spawners = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    spawners.add(Thread.ofPlatform().start(() -> {
                        spawning.countDown();
                        try {
                            for (int n = 0; ; n++) {
                                spawned.add(runtime.spawn("x" + n, placement, SpawnOptions.DEFAULT, () -> (c, m) -> { }));
                            }
                        } catch (IllegalStateException closed) {
                            // the runtime is closed: the spawns end
                        }
                    }));
                }
                spawning.await();
                runtime.close();
                for (Thread spawner : spawners) {
                    spawner.join();
                }
                for (ActorRef ref : spawned) {
                    assertTrue(ref.isTerminated(), placement + ", round " + round + ": " + ref + " outlived the close");
                }
                assertEquals(0, runtime.metrics().liveActors(), placement + ", round " + round);
            }
        }
    }

    @Test
    void aWorkerStillInATurnAfterTheGraceIsLoggedWithTheActorWhoseTurnItIs() throws Exception {
        CountDownLatch inTurn = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        runtime.spawn("stuck", () -> (c, m) -> {
            inTurn.countDown();
            release.await(PATIENCE_SECONDS, TimeUnit.SECONDS); // no poll site: nothing can end it but the latch
        }).tell("go");
        assertTrue(inTurn.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        try (CapturedLog log = new CapturedLog()) {
            runtime.close(); // 5 s of grace for the worker, then 1 s for its turn: both run out
            assertEquals(1, log.matching(Level.WARNING, "is still inside a turn of actor", "'stuck'", "leaves it running").size(),
                    () -> log.matching(Level.WARNING).toString());
        } finally {
            release.countDown();
        }
    }

    @Test
    void messagesACloseDropsUnhandledAreCountedAndTasksAreAbandoned() {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        List<Object> handled = new ArrayList<>();
        ActorRef actor = runtime.spawn("slow", () -> (c, m) -> handled.add(m));
        runtime.drain(); // started
        actor.tell("handled");
        runtime.drain();
        AtomicBoolean abandoned = new AtomicBoolean();
        for (int i = 0; i < 5; i++) {
            assertTrue(actor.tell("accepted " + i));
        }
        assertTrue(actor.submit(new TurnTask() {
            @Override
            public void run(ActorContext context) {
            }

            @Override
            public void abandoned() {
                abandoned.set(true);
            }
        }));
        runtime.close();
        assertEquals(List.of("handled"), handled);
        assertEquals(5, runtime.metrics().droppedMessages(), "the accepted messages no turn took");
        assertTrue(abandoned.get(), "the task's own hook, not the count");
    }
}
