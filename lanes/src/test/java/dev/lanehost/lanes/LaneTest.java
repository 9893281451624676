package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.mailbox.Mailbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Lanes driven by a dedicated Java thread standing in for the host (tests/ drives them from C pthreads). */
class LaneTest {
    private final ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-callback"));

    @AfterEach
    void stopHost() {
        host.shutdownNow();
    }

    private <T> T onHost(Callable<T> work) throws Exception {
        return host.submit(work).get();
    }

    @Test
    void aDriveReturnsWhileASenderIsStuckBetweenClaimingItsLettersSlotAndStoringIt() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            List<Object> handled = new ArrayList<>();
            ActorRef actor = runtime.spawnOnLane("frame", "a", () -> (c, m) -> handled.add(m));
            ActorCell cell = (ActorCell) actor.cell;
            HalfOffer second = host.submit(() -> {
                lane.drive(0); // bound, started
                actor.tell("first");
                return HalfOffer.of(cell, new Letter.Message("second")); // a sender preempted mid-offer, for good
            }).get(30, java.util.concurrent.TimeUnit.SECONDS);
            DriveCounts counts = new DriveCounts();
            int code = host.submit(() -> lane.drive(0, counts)).get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(DriveStatus.OK.code(), code, "the drive came back instead of spinning on the unlinked letter");
            assertEquals(1, counts.turns());
            assertEquals(List.of("first"), handled);
            assertEquals(1, counts.remaining(), "the letter being linked is still counted");
            second.link();
            host.submit(() -> lane.drive(0, counts)).get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of("first", "second"), handled, "linked, it runs at the next drive");
        }
    }

    /** The first half of a mailbox offer (counted, its slot claimed), done by hand; {@link #link()} is the second. */
    private record HalfOffer(Object[] chunk, int slot, Letter letter) {
        static HalfOffer of(ActorCell cell, Letter letter) throws ReflectiveOperationException {
            java.lang.reflect.Field lettersField = Mailbox.class.getDeclaredField("letters");
            lettersField.setAccessible(true);
            Object queue = lettersField.get(cell.mailbox);
            Class<?> producerFields = Class.forName("dev.lanehost.lanes.queue.MpscChunkQueueProducerFields");
            java.lang.reflect.Field produced = accessible(producerFields, "produced");
            Object[] chunk = (Object[]) accessible(producerFields, "producerChunk").get(queue);
            cell.lane.letterQueued();
            long word = produced.getLong(queue);
            assertEquals(0, word & 3, "not linking, and the actor not idle: this claim makes nothing runnable");
            int slot = (int) (word >>> 2) % (chunk.length - 1);
            assertTrue(slot != 0, "the claim stays in the chunk: no new chunk to link by hand");
            produced.setLong(queue, word + 4); // positions count in fours (MpscChunkQueue's protocol)
            return new HalfOffer(chunk, slot, letter);
        }

        void link() {
            chunk[slot] = letter;
        }

        private static java.lang.reflect.Field accessible(Class<?> owner, String name) throws NoSuchFieldException {
            java.lang.reflect.Field field = owner.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        }
    }

    @Test
    void theDriversOwnSendsToItsLaneCountAgainstTheLanesCapacityAndSettleWhenTheDriveReturns() throws Exception {
        // The driving thread counts the letters it queues on its own lane without an atomic add each, and settles them
        // with the letters its turns took when the drive returns: admission and the backlog must see them all along.
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).laneCapacity(3).build()) {
            ExecutionLane lane = runtime.registerLane("frame");
            List<Delivery> deliveries = new ArrayList<>();
            long[] backlogInTurn = new long[1];
            ActorRef actor = runtime.spawnOnLane("frame", "a", () -> (c, m) -> {
                if (m.equals("go")) {
                    for (int i = 0; i < 5; i++) {
                        deliveries.add(c.self().offer("next " + i));
                    }
                    backlogInTurn[0] = lane.queuedLetters();
                }
            });
            actor.tell("go"); // with the start: 2 letters of 3
            DriveResult first = onHost(() -> lane.drive(2)); // the start, then "go"
            // The drive's two letters still count until it returns (the backlog settles once per drive): one place left.
            assertEquals(List.of(Delivery.QUEUED, Delivery.FULL, Delivery.FULL, Delivery.FULL, Delivery.FULL), deliveries);
            assertEquals(3, backlogInTurn[0], "the start, \"go\" and the one letter the turn queued");
            assertEquals(1, first.remaining(), "settled: the one letter the turn queued");
            assertEquals(1, lane.queuedLetters());
            assertEquals(1, onHost(() -> lane.drive(0)).turns());
            assertEquals(0, lane.queuedLetters());
            assertEquals(4, lane.refusedLetters());
        }
    }

    @Test
    void laneNamesAreUniqueAndLookupDoesNotDrain() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class, () -> runtime.registerLane("audio"));
            assertTrue(duplicate.getMessage().contains("'audio' is already registered"), duplicate.getMessage());
            assertThrows(IllegalArgumentException.class, () -> runtime.registerLane(" "));
            runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            assertTrue(runtime.laneAvailable("audio"));
            assertFalse(runtime.laneAvailable("video"));
            assertEquals(1, lane.queued(), "laneAvailable ran nothing");
            assertEquals(1, onHost(() -> lane.drive(0)).turns());
        }
    }

    @Test
    void spawningOnAnUnknownLaneNamesIt() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            runtime.registerLane("frame");
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                    () -> runtime.spawnOnLane("audio", "synth", () -> (c, m) -> { }));
            assertTrue(thrown.getMessage().contains("lane 'audio'"), thrown.getMessage());
            assertTrue(thrown.getMessage().contains("[frame]"), thrown.getMessage());
        }
    }

    @Test
    void aLaneActorStartsOnTheLaneNeverOnTheSpawningThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            List<Thread> threads = new ArrayList<>();
            runtime.spawnOnLane("frame", "renderer", () -> {
                threads.add(Thread.currentThread());
                return new Behavior() {
                    @Override
                    public void started(ActorContext context) {
                        threads.add(Thread.currentThread());
                    }

                    @Override
                    public void receive(ActorContext context, Object message) {
                        threads.add(Thread.currentThread());
                    }
                };
            }).tell("frame 1");
            runtime.drain(); // the normal queue's drain must not touch lane work
            assertEquals(List.of(), threads);
            Thread hostThread = onHost(Thread::currentThread);
            assertEquals(2, onHost(() -> lane.drive(0)).turns());
            assertEquals(List.of(hostThread, hostThread, hostThread), threads);
        }
    }

    @Test
    void aDriveFromASecondThreadIsRefused() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            assertEquals(DriveStatus.OK, onHost(() -> lane.drive(0)).status());
            runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            DriveResult refused = lane.drive(0);
            assertEquals(DriveStatus.WRONG_THREAD, refused.status());
            assertEquals(0, refused.turns());
            assertEquals(1, lane.queued(), "the refused drive ran nothing");
            assertEquals(new DriveResult(DriveStatus.OK, 1, 0), onHost(() -> lane.drive(0)));
            assertSame(onHost(Thread::currentThread), lane.boundThread());
        }
    }

    @Test
    void aDriveFromInsideALaneTurnIsReentrant() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            AtomicReference<DriveResult> nested = new AtomicReference<>();
            runtime.spawnOnLane("audio", "nester", () -> (c, m) -> nested.set(lane.drive(0))).tell("go");
            onHost(() -> lane.drive(0));
            assertEquals(DriveStatus.REENTRANT, nested.get().status());
        }
    }

    @Test
    void actorsABoundedDriveLeftQueuedRunOnTheNextDriveThoughNothingNewArrived() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef a = runtime.spawnOnLane("audio", "a", () -> (context, message) -> { });
            ActorRef b = runtime.spawnOnLane("audio", "b", () -> (context, message) -> { });
            assertEquals(2, onHost(() -> lane.drive(0)).turns(), "both started");
            a.tell("x");
            b.tell("y");
            assertEquals(new DriveResult(DriveStatus.OK, 1, 1), onHost(() -> lane.drive(1)));
            // No send since: only the bounded drive's own look can tell the next drive that b is waiting.
            assertEquals(new DriveResult(DriveStatus.OK, 1, 0), onHost(() -> lane.drive(0)));
        }
    }

    @Test
    void maxTurnsBoundsADriveAndZeroDrainsToQuiescence() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            List<Integer> seen = new ArrayList<>();
            // Each message below 10 sends the next one from inside the turn.
            ActorRef chain = runtime.spawnOnLane("audio", "chain", () -> (context, message) -> {
                int n = (Integer) message;
                seen.add(n);
                if (n < 10) {
                    context.self().tell(n + 1);
                }
            });
            chain.tell(1);
            DriveResult first = onHost(() -> lane.drive(3));
            assertEquals(new DriveResult(DriveStatus.OK, 3, 1), first, "start + messages 1 and 2; the chain continues");
            assertEquals(List.of(1, 2), seen);
            DriveResult rest = onHost(() -> lane.drive(0));
            assertEquals(new DriveResult(DriveStatus.OK, 8, 0), rest, "messages 3..10, including work the turns queued");
            assertEquals(DriveStatus.INVALID_ARGUMENT, onHost(() -> lane.drive(-1)).status());
            assertEquals(11, lane.turns());
        }
    }

    @Test
    void aDriveRunsUpToTurnsPerRunTurnsOfOneActorBeforeTheNext() throws Exception {
        assertEquals(List.of("a0", "a1", "b0", "b1", "a2", "b2"), laneOrder(2));
        assertEquals(List.of("a0", "b0", "a1", "b1", "a2", "b2"), laneOrder(1));
    }

    /** The order in which a drive runs three letters each of two lane actors, queued one actor after the other. */
    private List<String> laneOrder(int turnsPerRun) throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).turnsPerRun(turnsPerRun).build()) {
            ExecutionLane lane = runtime.registerLane("order");
            List<String> order = new ArrayList<>();
            ActorRef a = runtime.spawnOnLane("order", "a", () -> (c, m) -> order.add((String) m));
            ActorRef b = runtime.spawnOnLane("order", "b", () -> (c, m) -> order.add((String) m));
            assertEquals(2, onHost(() -> lane.drive(0)).turns(), "both started");
            for (int i = 0; i < 3; i++) {
                a.tell("a" + i);
            }
            for (int i = 0; i < 3; i++) {
                b.tell("b" + i);
            }
            assertEquals(6, onHost(() -> lane.drive(0)).turns());
            return order;
        }
    }

    @Test
    void aLaneCountsItsLetterBacklogAndADriveReportsTheLettersLeft() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef first = runtime.spawnOnLane("audio", "first", () -> (c, m) -> { });
            ActorRef second = runtime.spawnOnLane("audio", "second", () -> (c, m) -> { });
            for (int i = 0; i < 5; i++) {
                first.tell(i);
            }
            second.tell("x");
            assertEquals(2, lane.queued(), "two actors queued");
            assertEquals(8, lane.queuedLetters(), "two starts and six messages");
            DriveResult some = onHost(() -> lane.drive(3));
            assertEquals(new DriveResult(DriveStatus.OK, 3, 5), some, "remaining counts letters, not actors");
            assertEquals(5, lane.queuedLetters());
            assertEquals(5, runtime.snapshot().lanes().get(0).queuedLetters());
            // A drive runs up to turnsPerRun turns of one actor: those three were first's start and two messages.
            assertTrue(first.kill(), "a halt drops the letters left, and the count follows");
            assertEquals(new DriveResult(DriveStatus.OK, 2, 0), onHost(() -> lane.drive(0)), "second's start and its message");
            assertEquals(0, lane.queuedLetters());
        }
    }

    @Test
    void everyWakeupRequeuesALaneActorOnItsLane() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).build()) {
            ExecutionLane lane = runtime.registerLane("audio");
            List<String> ran = new ArrayList<>();
            AtomicReference<Signal> signal = new AtomicReference<>();
            AtomicReference<Park<String>> park = new AtomicReference<>();
            Thread hostThread = onHost(Thread::currentThread);
            runtime.spawnOnLane("audio", "waker", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofMillis(5), c -> ran.add("timer on " + Thread.currentThread().getName()));
                    signal.set(context.signal(SignalMode.MULTISHOT, (c, payload) -> ran.add("signal " + payload.length), null));
                    park.set(context.park((ParkCallback<String>) (c, value) -> ran.add("park " + value), null));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    ran.add("message " + message);
                }
            });
            onHost(() -> lane.drive(0));
            runtime.advance(Duration.ofMillis(5));
            Thread firer = Thread.ofPlatform().start(() -> {
                signal.get().fire(new byte[3]);
                park.get().complete("done");
            });
            firer.join();
            runtime.lookup(1).tell("hi");
            assertEquals(0, runtime.metrics().normalQueued(), "nothing of a lane actor lands on the normal queue");
            runtime.drain();
            assertEquals(List.of(), ran, "the lane is bound to the host thread, so the simulation leaves it to that thread");
            assertEquals(4, onHost(() -> lane.drive(0)).turns());
            assertEquals(List.of("timer on " + hostThread.getName(), "signal 3", "park done", "message hi"), ran);
        }
    }

    @Test
    void aLaneWithQueuedWorkNotDrivenForTheThresholdIsReported() throws Exception {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).laneStallThreshold(Duration.ofMillis(100)).build()) {
            ExecutionLane lane = runtime.registerLane("frame");
            runtime.advance(Duration.ofSeconds(1));
            assertFalse(lane.isStalled(), "an idle lane starves nobody");
            runtime.spawnOnLane("frame", "sprite", () -> (c, m) -> { });
            assertFalse(lane.isStalled());
            runtime.advance(Duration.ofMillis(150));
            assertTrue(lane.isStalled());
            assertEquals(1, log.matching(java.util.logging.Level.WARNING, "lane 'frame'",
                    "no host thread has driven it yet").size(), "a lane never driven is not said to have stopped");
            assertEquals(1, runtime.metrics().stalledLanes());
            assertTrue(runtime.snapshot().lanes().get(0).stalled());
            assertEquals(1, runtime.metrics().laneStallReports(), "one report per stall episode");
            onHost(() -> lane.drive(0));
            assertFalse(lane.isStalled());
            assertEquals(0, runtime.metrics().stalledLanes());
        }
    }

    @Test
    void aClosedRuntimeRefusesDrives() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ExecutionLane lane = runtime.registerLane("audio");
        onHost(() -> lane.drive(0));
        runtime.close();
        assertEquals(DriveStatus.CLOSED, onHost(() -> lane.drive(0)).status());
    }
}
