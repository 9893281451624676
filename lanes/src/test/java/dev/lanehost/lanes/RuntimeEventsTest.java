package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.observe.RuntimeEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * Each Flight Recorder hook records its event with its fields: a recording runs around the provocation, is dumped
 * under {@code target/}, and read back. Other tests may run runtimes meanwhile, so each test picks its own events
 * by actor, lane or thread.
 */
class RuntimeEventsTest {
    private static final long PATIENCE_SECONDS = 30;
    private static final List<String> EVENTS = List.of("dev.lanehost.TurnOverBudget", "dev.lanehost.ActorHalted",
            "dev.lanehost.Steal", "dev.lanehost.LaneDriveStall", "dev.lanehost.AffinityResult");

    interface Provocation {
        void run() throws Exception;
    }

    /** Runs {@code provocation} under a recording with every lanehost event enabled; the events it recorded named {@code name}. */
    private static List<RecordedEvent> record(String file, String name, Provocation provocation) throws Exception {
        Path dump = Path.of("target", "jfr", file);
        Files.createDirectories(dump.getParent());
        try (Recording recording = new Recording()) {
            for (String event : EVENTS) {
                recording.enable(event);
            }
            recording.start();
            provocation.run();
            recording.stop();
            recording.dump(dump);
        }
        return RecordingFile.readAllEvents(dump).stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    @Test
    void everyEventIsNamedUnderTheLanehostCategoryWithLabelsAndADescription() {
        List<EventType> types = Stream.of(RuntimeEvents.TurnOverBudget.class, RuntimeEvents.ActorHalted.class,
                RuntimeEvents.Steal.class, RuntimeEvents.LaneDriveStall.class, RuntimeEvents.AffinityResultEvent.class)
                .map(EventType::getEventType).toList();
        assertEquals(EVENTS, types.stream().map(EventType::getName).toList());
        for (EventType type : types) {
            assertEquals(List.of("lanehost"), type.getCategoryNames(), type.getName());
            assertTrue(type.getLabel() != null && type.getDescription() != null, type.getName());
            for (ValueDescriptor field : type.getFields()) {
                assertTrue(field.getLabel() != null, type.getName() + "." + field.getName() + " has a label");
            }
        }
    }

    @Test
    void aHostedTurnThatIgnoresItsYieldRequestIsRecordedDisruptedWithItsDuration() throws Exception {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        List<RecordedEvent> events = record("disrupted.jfr", "dev.lanehost.TurnOverBudget", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
                ActorRef spinner = runtime.spawn("jfr-spinner", () -> (context, message) -> {
                    while (true) {
                        context.checkpoint(); // only the disruption ends this turn
                    }
                });
                CountDownLatch down = Downs.awaitable(runtime, spinner);
                spinner.tell("spin");
                assertTrue(down.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the spinning turn was never disrupted");
            }
        });
        List<RecordedEvent> mine = ofActor(events, "jfr-spinner");
        assertEquals(1, mine.size(), mine.toString());
        RecordedEvent event = mine.get(0);
        assertEquals("disrupted", event.getString("verdict"));
        assertEquals("normal", event.getString("placement"));
        assertTrue(event.getLong("actorId") > 0);
        assertTrue(event.getDuration("turnDuration").compareTo(budget.fast().plus(budget.slow())) >= 0,
                "disrupted only once it ran a slow budget past the yield request: " + event);
    }

    @Test
    void turnsPastTheirBudgetAreRecordedFastThenSlowThenTheStrikeThatHalts() throws Exception {
        // fast 1 ms, slow 2 ms, 3 strikes; each simulated poll costs 1 µs of virtual time.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(2), 3);
        List<RecordedEvent> events = record("verdicts.jfr", "dev.lanehost.TurnOverBudget", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).seed(1).turnBudget(budget).build()) {
                ActorRef slow = runtime.spawn("jfr-slow", () -> (context, message) -> {
                    for (int i = 0; i < (Integer) message; i++) {
                        context.checkpoint(); // ignores the yield request
                    }
                });
                // 1.5 ms: past fast only; 2.5 ms: past slow, short of the disruption at fast + slow.
                for (int polls : new int[] {100, 1_500, 2_500, 2_500, 2_500}) {
                    slow.tell(polls);
                }
                runtime.runUntilIdle(Duration.ZERO);
                assertEquals(ExitReason.BUDGET, slow.exitReason().orElseThrow());
            }
        });
        List<RecordedEvent> mine = ofActor(events, "jfr-slow");
        assertEquals(List.of("fast", "slow", "slow", "strike"), mine.stream().map(e -> e.getString("verdict")).toList());
        assertEquals(List.of(0, 1, 2, 3), mine.stream().map(e -> e.getInt("strikes")).toList());
        assertTrue(mine.get(0).getDuration("turnDuration").compareTo(budget.fast()) >= 0, mine.get(0).toString());
        for (RecordedEvent slowTurn : mine.subList(1, 4)) {
            assertTrue(slowTurn.getDuration("turnDuration").compareTo(budget.slow()) >= 0, slowTurn.toString());
        }
    }

    @Test
    void aKilledActorsTeardownIsRecordedWithItsReasonAndPlacement() throws Exception {
        List<RecordedEvent> events = record("halted.jfr", "dev.lanehost.ActorHalted", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
                ActorRef victim = runtime.spawnPinned(1, "jfr-victim", () -> (context, message) -> { });
                CountDownLatch down = Downs.awaitable(runtime, victim);
                assertTrue(victim.kill());
                assertTrue(down.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the killed actor was never torn down");
            }
        });
        List<RecordedEvent> mine = ofActor(events, "jfr-victim");
        assertEquals(1, mine.size(), mine.toString());
        assertEquals("Killed", mine.get(0).getString("reason"));
        assertEquals("pinned(1)", mine.get(0).getString("placement"));
        assertEquals("", mine.get(0).getString("detail"));
    }

    @Test
    void aFailedTurnsHaltIsRecordedWithTheExceptionsClassOnly() throws Exception {
        List<RecordedEvent> events = record("failed.jfr", "dev.lanehost.ActorHalted", () -> {
            try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
                ActorRef failing = runtime.spawn("jfr-failing", () -> (context, message) -> {
                    throw new IllegalStateException("secret user text");
                });
                failing.tell("fail");
                runtime.runUntilIdle(Duration.ZERO);
            }
        });
        List<RecordedEvent> mine = ofActor(events, "jfr-failing");
        assertEquals(1, mine.size(), mine.toString());
        assertEquals("Failed", mine.get(0).getString("reason"));
        assertEquals(IllegalStateException.class.getName(), mine.get(0).getString("detail"), "never the message");
    }

    @Test
    void aStealIsRecordedWithTheThiefTheVictimAndTheActor() throws Exception {
        long[] workerIds = new long[2];
        List<RecordedEvent> events = record("steal.jfr", "dev.lanehost.Steal", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
                workerIds[0] = runtime.scheduler.pool().worker(0).threadId();
                workerIds[1] = runtime.scheduler.pool().worker(1).threadId();
                CountDownLatch release = new CountDownLatch(1);
                CountDownLatch stolenRan = new CountDownLatch(1);
                runtime.spawnPinned(0, "jfr-holder", () -> new Behavior() {
                    @Override
                    public void started(ActorContext context) {
                        // Spawned from worker 0, so queued on worker 0, behind this very turn: only a steal runs it.
                        context.spawn("jfr-stolen", () -> new Behavior() {
                            @Override
                            public void started(ActorContext stolen) {
                                stolenRan.countDown();
                            }

                            @Override
                            public void receive(ActorContext stolen, Object message) {
                            }
                        });
                        try {
                            release.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }

                    @Override
                    public void receive(ActorContext context, Object message) {
                    }
                });
                assertTrue(stolenRan.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "worker 1 never stole the queued actor");
                release.countDown();
            }
        });
        List<RecordedEvent> mine = ofActor(events, "jfr-stolen");
        assertEquals(1, mine.size(), mine.toString());
        assertEquals(workerIds[1], mine.get(0).getThread("thief").getJavaThreadId());
        assertEquals(workerIds[0], mine.get(0).getThread("victim").getJavaThreadId());
        assertEquals("lanehost-worker-1", mine.get(0).getThread("thief").getJavaName());
    }

    @Test
    void aClosedRuntimesLanesAreNeitherStalledNorQueuedWhateverTheTeardownLeftBehind() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).laneStallThreshold(Duration.ofMillis(100)).build();
        runtime.registerLane("never-driven");
        runtime.spawnOnLane("never-driven", "sprite", () -> (c, m) -> { });
        assertEquals(0, runtime.metrics().stalledLanes(), "work just queued: the watch starts timing it");
        runtime.advance(Duration.ofMillis(150));
        assertEquals(1, runtime.metrics().stalledLanes());
        long reports = runtime.metrics().laneStallReports();
        runtime.close(); // the lane's actor is torn down on the closing thread
        assertEquals(0, runtime.metrics().stalledLanes(), "nothing is left to drive");
        Snapshot.LaneRow row = runtime.snapshot().lanes().get(0);
        assertEquals(List.of(0L, 0L, 0L, 0L), row.bandDepths());
        assertFalse(row.stalled());
        assertEquals(reports, runtime.metrics().laneStallReports(), "no new stall episode after close");
    }

    @Test
    void aLaneLeftUndrivenPastTheStallThresholdIsRecordedOncePerEpisode() throws Exception {
        List<RecordedEvent> events = record("stall.jfr", "dev.lanehost.LaneDriveStall", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).laneStallThreshold(Duration.ofMillis(100)).build()) {
                runtime.registerLane("jfr-frame");
                runtime.spawnOnLane("jfr-frame", "sprite", () -> (c, m) -> { });
                assertEquals(0, runtime.metrics().stalledLanes(), "work just queued: the watch starts timing it");
                runtime.advance(Duration.ofMillis(150));
                assertEquals(1, runtime.metrics().stalledLanes());
                runtime.advance(Duration.ofMillis(150));
                assertEquals(1, runtime.metrics().stalledLanes(), "the same episode: no second event");
            }
        });
        List<RecordedEvent> mine = events.stream().filter(e -> "jfr-frame".equals(e.getString("lane"))).toList();
        assertEquals(1, mine.size(), mine.toString());
        assertEquals(1, mine.get(0).getLong("queuedActors"));
        assertEquals(1, mine.get(0).getLong("queuedLetters"), "the sprite's start");
        assertEquals(Duration.ofMillis(150), mine.get(0).getDuration("undrivenFor"), "virtual time: exactly the advance");
    }

    @Test
    void eachWorkersAffinityResultIsRecordedOnItsStart() throws Exception {
        long[] workerIds = new long[2];
        List<RecordedEvent> events = record("affinity.jfr", "dev.lanehost.AffinityResult", () -> {
            try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
                workerIds[0] = runtime.scheduler.pool().worker(0).threadId();
                workerIds[1] = runtime.scheduler.pool().worker(1).threadId();
            }
        });
        for (long id : workerIds) {
            List<RecordedEvent> mine = events.stream().filter(e -> e.getThread("thread").getJavaThreadId() == id).toList();
            assertEquals(1, mine.size(), "one result for worker thread " + id + ": " + events);
            assertEquals("NOT_REQUESTED", mine.get(0).getString("outcome"), "the default policy asks for nothing");
            assertEquals("not requested", mine.get(0).getString("reason"));
            assertEquals("", mine.get(0).getString("requestedCpus"));
        }
    }

    private static List<RecordedEvent> ofActor(List<RecordedEvent> events, String actorName) {
        return events.stream().filter(e -> actorName.equals(e.getString("actorName"))).toList();
    }
}
