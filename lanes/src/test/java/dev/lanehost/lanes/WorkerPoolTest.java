package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.scheduler.hosted.KeptActor;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** HOSTED's worker pool: stealing, pinning, placement errors, idle strategies and a clean stop. */
class WorkerPoolTest {
    private static final long PATIENCE_SECONDS = 30;

    @Test
    void anIdleWorkerStealsNormalActorsQueuedBehindABusyOne() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch allRan = new CountDownLatch(20);
            Map<String, String> ranOn = new ConcurrentHashMap<>();
            AtomicReference<String> blockerThread = new AtomicReference<>();
            runtime.spawn("blocker", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    blockerThread.set(Thread.currentThread().getName());
                    // Spawned from this worker, so queued on this worker: behind this very turn.
                    for (int i = 0; i < 20; i++) {
                        String name = "light-" + i;
                        context.spawn(name, () -> new Behavior() {
                            @Override
                            public void started(ActorContext light) {
                                ranOn.put(name, Thread.currentThread().getName());
                                allRan.countDown();
                            }

                            @Override
                            public void receive(ActorContext light, Object message) {
                            }
                        });
                    }
                    Latches.await(release); // holds this worker until every light actor has run
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertTrue(allRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the light actors ran while their worker was busy: "
                    + ranOn + ", " + runtime.metrics().workers());
            release.countDown();
            assertEquals(1, Set.copyOf(ranOn.values()).size(), ranOn.toString());
            assertFalse(ranOn.containsValue(blockerThread.get()), "none ran on the busy worker");
            int thief = blockerThread.get().equals("lanehost-worker-0") ? 1 : 0; // the blocker ran where a worker spun first
            long steals = runtime.metrics().workers().get(thief).steals();
            assertTrue(steals >= 1 && steals <= 20, "worker " + thief + " stole them, several at a time: " + runtime.metrics().workers());
        }
    }

    @Test
    void aPinnedActorIsNeverStolenEvenWhileItsWorkerIsBusy() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch stolenRan = new CountDownLatch(1);
            AtomicReference<String> pinnedRanOn = new AtomicReference<>();
            CountDownLatch pinnedRan = new CountDownLatch(1);
            ActorRef holder = runtime.spawnPinned(0, "holder", () -> (context, message) -> {
                // Queue a normal actor on this worker: the other worker's steal of it proves it was stealing.
                context.spawn("probe", () -> new Behavior() {
                    @Override
                    public void started(ActorContext probe) {
                        stolenRan.countDown();
                    }

                    @Override
                    public void receive(ActorContext probe, Object m) {
                    }
                });
                holding.countDown();
                Latches.await(release);
            });
            ActorRef pinned = runtime.spawnPinned(0, "pinned", () -> (context, message) -> {
                pinnedRanOn.set(Thread.currentThread().getName());
                pinnedRan.countDown();
            });
            assertTrue(pinned.tell("run"));
            assertTrue(holder.tell("hold"));
            assertTrue(holding.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertTrue(stolenRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "worker 1 stole the normal actor");
            WorkerStats zero = runtime.metrics().workers().get(0);
            // Worker 1 was stealing from worker 0 while the pinned actor's letter waited there.
            if (pinnedRan.getCount() == 1) {
                assertTrue(zero.pinnedQueued() >= 1, zero.toString());
            }
            release.countDown();
            assertTrue(pinnedRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals("lanehost-worker-0", pinnedRanOn.get());
            assertTrue(runtime.context().isRunnerOf(runtime.actors.live(pinned.id()), runtime.scheduler.pool().worker(0)));
            assertFalse(runtime.context().isRunnerOf(runtime.actors.live(pinned.id()), runtime.scheduler.pool().worker(1)));
        }
    }

    @Test
    void spawnPinnedFromATurnPinsToThatTurnsWorker() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            AtomicReference<String> parentThread = new AtomicReference<>();
            AtomicReference<String> childThread = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(3);
            runtime.spawnPinned(1, "parent", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    parentThread.set(Thread.currentThread().getName());
                    ActorRef child = runtime.spawnPinned("child", () -> (c, message) -> {
                        childThread.set(Thread.currentThread().getName());
                        done.countDown();
                    });
                    for (int i = 0; i < 3; i++) {
                        child.tell(i);
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertTrue(done.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals("lanehost-worker-1", parentThread.get());
            assertEquals("lanehost-worker-1", childThread.get());
        }
    }

    @Test
    void pinningToAWorkerThatDoesNotExistOrFromOutsideIsAClearError() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                    () -> runtime.spawnPinned(2, "x", () -> (c, m) -> { }));
            assertTrue(range.getMessage().contains("no worker 2") && range.getMessage().contains("0 to 1"), range.getMessage());
            assertThrows(IllegalArgumentException.class, () -> runtime.spawnPinned(-1, "x", () -> (c, m) -> { }));
            IllegalStateException outside = assertThrows(IllegalStateException.class,
                    () -> runtime.spawnPinned("x", () -> (c, m) -> { }));
            assertTrue(outside.getMessage().contains("not a worker"), outside.getMessage());
            assertEquals(ResourceCounts.NONE, runtime.resources(), "nothing half-spawned");
        }
        assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.HOSTED).workers(0));
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.backoff(-1, 0));
    }

    @Test
    void theDefaultIsOneWorkerPerAvailableCpu() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            int cpus = Runtime.getRuntime().availableProcessors();
            assertEquals(cpus, runtime.metrics().workerCount());
            assertEquals(cpus, runtime.metrics().workers().size());
            assertEquals(cpus, runtime.metrics().affinityResults().size(), "each worker recorded its affinity");
        }
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            assertEquals(1, runtime.metrics().workerCount());
            assertEquals(List.of(), runtime.metrics().workers());
        }
    }

    @Test
    void anActorALongTurnPutInItsWorkersSlotRunsDuringThatTurnEvenWhenIdleWorkersParkAtOnce() throws Exception {
        // Workers that park at once never spin, so never look at another worker's slot: the budget watch must move
        // the actor out of the slot for the parked worker it wakes.
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).idleStrategy(IdleStrategy.backoff(0, 0)).build()) {
            CountDownLatch woken = new CountDownLatch(1);
            AtomicReference<String> wokenOn = new AtomicReference<>();
            ActorRef sleeper = runtime.spawn("woken", () -> (context, message) -> {
                wokenOn.set(Thread.currentThread().getName());
                woken.countDown();
            });
            java.util.concurrent.CompletableFuture<Boolean> ranDuringTheTurn = new java.util.concurrent.CompletableFuture<>();
            AtomicReference<String> longTurnOn = new AtomicReference<>();
            ActorRef waker = runtime.spawn("long turn", () -> (context, message) -> {
                longTurnOn.set(Thread.currentThread().getName());
                sleeper.tell("wake"); // from a worker: into this worker's slot, to run after this run
                try {
                    ranDuringTheTurn.complete(woken.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    ranDuringTheTurn.completeExceptionally(e);
                }
            });
            assertTrue(waker.tell("go"));
            assertTrue(ranDuringTheTurn.get(2 * PATIENCE_SECONDS, TimeUnit.SECONDS),
                    "the woken actor waited in the slot for the whole turn: " + runtime.metrics().workers());
            assertFalse(wokenOn.get().equals(longTurnOn.get()), "it ran on the other worker");
        }
    }

    @Test
    void aBusySpinPoolRunsActorsAndStopsCleanly() throws Exception {
        List<Thread> threads;
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).idleStrategy(IdleStrategy.busySpin()).build()) {
            threads = runtime.scheduler.pool().threads();
            CountDownLatch pongs = new CountDownLatch(1000);
            ActorRef counter = runtime.spawn("counter", () -> (context, message) -> pongs.countDown());
            for (int i = 0; i < 1000; i++) {
                assertTrue(counter.tell(i));
            }
            assertTrue(pongs.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        }
        for (Thread thread : threads) {
            assertFalse(thread.isAlive(), thread.getName() + " ended with the runtime");
        }
    }

    @Test
    void aMessageFromOffThePoolReachesASpinningWorkerThroughItsDoor() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).idleStrategy(IdleStrategy.busySpin()).build()) {
            Worker worker = runtime.scheduler.pool().worker(0);
            java.util.concurrent.SynchronousQueue<Thread> ranOn = new java.util.concurrent.SynchronousQueue<>();
            ActorRef[] actors = new ActorRef[2];
            for (int a = 0; a < actors.length; a++) {
                actors[a] = runtime.spawn("door-" + a, () -> (context, message) -> ranOn.put(Thread.currentThread()));
                // A spawn queues the actor, with its start, on the worker's queue, where the spinning worker may not have
                // found it yet although its door is open: a message then joins the start in the mailbox and never meets
                // the door. One message through first, so the start has run.
                assertTrue(actors[a].tell("started"));
                assertSame(worker, ranOn.poll(PATIENCE_SECONDS, TimeUnit.SECONDS));
            }
            // The worker keeps the last actor it ran scheduled (the next test): each message goes to the other one,
            // which is idle, so it meets the door. The door opens only once the last turn has ended.
            for (int i = 0; i < 100; i++) {
                while (!worker.handOff.isOpen()) {
                    Thread.onSpinWait(); // the last message's turn is still running: a busy-spin worker spins once it ends
                }
                long before = worker.handOffs();
                assertTrue(actors[i % 2].tell(i));
                assertSame(worker, ranOn.poll(PATIENCE_SECONDS, TimeUnit.SECONDS));
                assertEquals(before + 1, worker.handOffs(), "message " + i + " was handed in at the open door");
                assertEquals(0, worker.shared.depth());
            }
        }
    }

    @Test
    void anIdleWorkerKeepsTheLastActorItRanSoItsNextLetterNeedsNoDoorOrQueue() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).idleStrategy(IdleStrategy.busySpin()).build()) {
            Worker worker = runtime.scheduler.pool().worker(0);
            java.util.concurrent.SynchronousQueue<Thread> ranOn = new java.util.concurrent.SynchronousQueue<>();
            ActorRef actor = runtime.spawn("kept", () -> (context, message) -> ranOn.put(Thread.currentThread()));
            assertTrue(actor.tell("started"));
            assertSame(worker, ranOn.poll(PATIENCE_SECONDS, TimeUnit.SECONDS));
            for (int i = 0; i < 100; i++) {
                while (!worker.handOff.isOpen()) {
                    Thread.onSpinWait(); // the last turn is still running
                }
                long before = worker.handOffs();
                assertTrue(actor.tell(i));
                assertSame(worker, ranOn.poll(PATIENCE_SECONDS, TimeUnit.SECONDS));
                assertEquals(before, worker.handOffs(), "message " + i + " went through the door: the actor was not kept");
                assertEquals(0, worker.shared.depth());
            }
            // Kept, it still looks idle to an observer: scheduled, but with nothing to run.
            while (!worker.handOff.isOpen()) {
                Thread.onSpinWait();
            }
            assertEquals(Snapshot.ActorState.IDLE, runtime.snapshot().actors().stream()
                    .filter(row -> row.name().equals("kept")).findFirst().orElseThrow().state());
        }
    }

    @Test
    void aSpinningThiefTakesAKeptNormalActorWithALetterButNeverAPinnedOne() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            Worker thief = pool.worker(1);
            ActorCell pinned = new ActorCell(1, "pinned", Placement.pinned(0), runtime.context(), owner.pinned, null, null,
                    runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> { });
            owner.kept.run(pinned, 1, false); // its start: kept, at the owner's door
            pinned.offer("letter");
            for (int look = 0; look < 2 * Worker.DOOR_SIGHTINGS; look++) {
                assertNull(thief.asThief.keptAt(owner), "a pinned actor left its worker at look " + look);
            }
            assertSame(pinned, owner.kept.withWork());

            ActorCell normal = new ActorCell(2, "normal", Placement.NORMAL, runtime.context(), owner.shared, pool, null,
                    runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> { });
            owner.kept.run(normal, 1, false);
            normal.offer("letter");
            for (int look = 1; look < Worker.DOOR_SIGHTINGS; look++) {
                assertNull(thief.asThief.keptAt(owner), "taken before its last sighting");
            }
            assertSame(normal, thief.asThief.keptAt(owner), "a worker that does not take its kept actor's letter loses it");
            assertFalse(normal.mailbox.isTurnLocked(), "the thief runs it as any actor it takes: the kept lock let go");
            assertNull(owner.kept.withWork(), "the thief has it now");
        }
    }

    @Test
    void twoActorsSendingToEachOtherOnAWorkerPassLettersThroughItsKeptDoorWithNoQueueOrSlot() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            ActorCell[] pair = new ActorCell[2];
            for (int i = 0; i < 2; i++) {
                int partner = 1 - i;
                pair[i] = new ActorCell(i + 1, "pair-" + i, Placement.NORMAL, runtime.context(), owner.shared, pool, null,
                        runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                        () -> (context, message) -> assertEquals(Delivery.QUEUED, pair[partner].offer(message)));
            }
            assertEquals(1, owner.kept.run(pair[0], 1, false), "its start: kept at the owner's door");
            assertTrue(pair[0].mailbox.isTurnLocked(), "kept with its turn lock");
            assertEquals(Delivery.QUEUED, pair[1].offer("ball"));
            assertEquals(2, owner.kept.run(pair[1], 2, true), "its start, then the ball, sent on to the kept one (as from the next slot)");
            for (int swap = 1; swap <= KeptActor.AHEAD_RUNS; swap++) {
                ActorCell next = owner.kept.takeBack();
                assertSame(pair[(swap - 1) % 2], next, "the swap that kept its partner took it back, its letter waiting: swap " + swap);
                assertTrue(pair[0].isScheduled() && pair[1].isScheduled(), "neither was made idle to be queued again");
                assertEquals(0, owner.shared.depth(), "no queue");
                assertNull(owner.nextInSlot(), "no slot");
                assertTrue(next.mailbox.isTurnLocked(), "taken back with its turn lock: its run takes none");
                assertEquals(1, owner.kept.runTakenBack(next, 1), "a run of one turn: the swap comes after it");
            }
            assertNull(owner.kept.takeBack(), "after its runs in a row, the worker's queues come first");
            ActorCell lastRun = pair[(KeptActor.AHEAD_RUNS - 1) % 2];
            ActorCell behind = pair[KeptActor.AHEAD_RUNS % 2];
            assertSame(behind, owner.shared.pollShared(), "let go with its letter: queued on its home");
            assertFalse(behind.mailbox.isTurnLocked(), "and its lock let go");
            assertTrue(lastRun.isScheduled(), "the last one run is kept");
            owner.kept.release();
            assertFalse(lastRun.isScheduled(), "let go with no letter: idle");
            assertFalse(lastRun.mailbox.isTurnLocked());
        }
    }

    /**
     * Two actors on {@code owner} that send each letter they get on to the other, counting their turns: pair-0 kept at
     * the owner's door after its start, a ball offered to pair-1 (queued, as to any actor not yet run).
     */
    private static ActorCell[] pairWithABall(ActorRuntime runtime, WorkerPool pool, Worker owner, int[] turns) {
        ActorCell[] pair = new ActorCell[2];
        for (int i = 0; i < 2; i++) {
            int self = i;
            pair[i] = new ActorCell(i + 1, "pair-" + i, Placement.NORMAL, runtime.context(), owner.shared, pool, null,
                    runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> {
                        turns[self]++;
                        assertEquals(Delivery.QUEUED, pair[1 - self].offer(message));
                    });
        }
        assertEquals(1, owner.kept.run(pair[0], 1, false), "its start: kept at the owner's door");
        assertEquals(Delivery.QUEUED, pair[1].offer("ball"));
        return pair;
    }

    @Test
    void aPairTakesTurnsInsideOneRunSwappedAtTheDoorUpToTheRunsTurns() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            int[] turns = new int[2];
            ActorCell[] pair = pairWithABall(runtime, pool, owner, turns);
            assertEquals(2, owner.kept.run(pair[1], 2, true), "its start, then the ball, sent on to the kept one");
            assertSame(pair[0], owner.kept.takeBack(), "the ball waits for the kept one: run next");

            assertEquals(16, owner.kept.runTakenBack(pair[0], 16), "one run: the ball back and forth, 16 turns in all");
            assertEquals(8, turns[0], "each took every other turn");
            assertEquals(9, turns[1], "its ball before, then every other turn");
            assertTrue(pair[0].isScheduled() && pair[1].isScheduled(), "neither was made idle to be queued again");
            assertTrue(pair[0].mailbox.isTurnLocked() && pair[1].mailbox.isTurnLocked(), "nor its lock let go");
            assertEquals(0, owner.shared.depth(), "no queue");
            assertNull(owner.nextInSlot(), "no slot");
            assertSame(pair[0], owner.kept.takeBack(), "the ball with pair-0 again: next run");
            assertEquals(1, owner.kept.runTakenBack(pair[0], 1), "a run of one turn: the swap comes after it");
            owner.kept.release();
            assertSame(pair[1], owner.shared.pollShared(), "let go with the ball: queued");
            assertFalse(pair[0].isScheduled(), "let go with no letter: idle");
            assertFalse(pair[0].mailbox.isTurnLocked() || pair[1].mailbox.isTurnLocked(), "both locks let go");
        }
    }

    @Test
    void aPairsActorFromTheQueuesRunsAloneItsPartnersLetterWaitsBehindTheOthers() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            int[] turns = new int[2];
            ActorCell[] pair = pairWithABall(runtime, pool, owner, turns);
            assertEquals(2, owner.kept.run(pair[1], 16, false), "from the queues: its start and the ball, no more");
            assertNull(owner.kept.takeBack(), "its partner is not run next either");
            assertSame(pair[0], owner.shared.pollShared(), "let go with the ball: queued behind the others");
            owner.kept.release();
        }
    }

    @Test
    void aPairsRunGoesOnWithAPartnerHaltedAtTheDoorAndTearsItDownThere() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            ActorCell door = new ActorCell(1, "at-door", Placement.NORMAL, runtime.context(), owner.shared, pool, null,
                    runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> { });
            ActorCell running = new ActorCell(2, "running", Placement.NORMAL, runtime.context(), owner.shared, pool, null,
                    runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> door.halt(new ExitReason.Killed()));
            assertEquals(1, owner.kept.run(door, 1, false), "its start: kept at the owner's door");
            assertEquals(Delivery.QUEUED, running.offer("halt it"));
            assertEquals(2, owner.kept.run(running, 16, true), "its start and its letter; then the halted one's teardown");
            assertEquals(new ExitReason.Killed(), door.exitReason());
            assertFalse(door.isScheduled(), "torn down in the same run and let go: idle for good");
            assertFalse(door.mailbox.isTurnLocked());
            assertTrue(running.isScheduled() && running.mailbox.isTurnLocked(), "the one run before it kept at the door");
            assertNull(owner.kept.takeBack());
            owner.kept.release();
            assertFalse(running.isScheduled());
        }
    }

    @Test
    void aKeptActorWhoseLetterCameWhileAnActorFromTheQueuesRanIsLetGoBehindTheOthersNotRunNext() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("test"), null);
            Worker owner = pool.worker(0);
            ActorCell coordinator = new ActorCell(1, "coordinator", Placement.NORMAL, runtime.context(), owner.shared, pool,
                    null, runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> { });
            ActorCell[] answering = new ActorCell[2];
            for (int i = 0; i < answering.length; i++) {
                answering[i] = new ActorCell(i + 2, "answering-" + i, Placement.NORMAL, runtime.context(), owner.shared,
                        pool, null, runtime.context().defaultBudget, runtime.context().mailboxCapacity,
                        SpawnOptions.DEFAULT, () -> (context, message) -> assertEquals(Delivery.QUEUED, coordinator.offer(message)));
            }
            assertEquals(1, owner.kept.run(coordinator, 1, false), "its start: kept at the owner's door");
            assertEquals(Delivery.QUEUED, answering[0].offer("work"));
            assertEquals(2, owner.kept.run(answering[0], 2, false), "from the queues: its start, then its answer");
            assertNull(owner.kept.takeBack(), "the coordinator is not run next for one answer");
            assertSame(coordinator, owner.shared.pollShared(), "let go with its answer: queued behind the others");
            assertFalse(coordinator.mailbox.isTurnLocked(), "and its lock let go: whoever polls it locks it");
            assertEquals(1, owner.kept.run(coordinator, 16, false), "run from the queue, its answer taken; kept again");

            // The same answer from an actor of the worker's next slot (one of its own turns woke it): the pair's way.
            assertEquals(Delivery.QUEUED, answering[1].offer("work"));
            assertEquals(2, owner.kept.run(answering[1], 2, true), "from the next slot: its start, then its answer");
            assertSame(coordinator, owner.kept.takeBack(), "run next, as a pair's partner is");
            assertEquals(0, owner.shared.depth(), "no queue");
        }
    }

    @Test
    void closeLeavesNoWorkerBehind() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(3).build();
        List<Thread> threads = runtime.scheduler.pool().threads();
        assertEquals(3, threads.size());
        runtime.close();
        for (Thread thread : threads) {
            assertFalse(thread.isAlive(), thread.getName() + " ended with the runtime");
        }
    }

    @Test
    void closeLeavesNoRuntimeThreadBehind() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2)
                .placement(dev.lanehost.affinity.PlacementConfig.parse("io: cooperative(pool = io);\nsolo: pinned;\n")).build();
        CountDownLatch ran = new CountDownLatch(3);
        runtime.spawnBlocked("blocking", () -> (context, message) -> ran.countDown()).tell("run");
        runtime.spawnPlaced("solo", "solo", () -> (context, message) -> ran.countDown()).tell("run");
        runtime.spawn("normal", () -> (context, message) -> ran.countDown()).tell("run");
        assertTrue(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        List<Thread> started = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !before.contains(thread) && thread.getName().startsWith("lanehost-")).toList();
        // two workers, the timer, a blocking thread, the pool's and the pinned entry's threads
        assertEquals(6, started.size(), started.toString());
        runtime.close();
        for (Thread thread : started) {
            assertFalse(thread.isAlive(), thread.getName() + " ended with the runtime");
        }
    }
}
