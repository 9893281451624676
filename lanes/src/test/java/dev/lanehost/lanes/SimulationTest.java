package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The SIMULATED profile as a conformance harness: one seed, one whole interleaving, in virtual time. */
class SimulationTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theSameSeedGivesTheSameInterleavingOfLanesNormalActorsTimersAndSignals() {
        Run first = mesh(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        assertEquals(RunStatus.IDLE, first.status);
        assertEquals(Set.of("normal", "audio", "frame"), queues(first.schedule), "the seed chose among every queue");
        assertTrue(first.trace.stream().anyMatch(e -> e.contains("timer")), "timers fired inside the run: " + first.trace);
        assertTrue(first.trace.stream().anyMatch(e -> e.startsWith("hub signal")), "signals fired: " + first.trace);
        for (int run = 1; run < 100; run++) {
            Run again = mesh(ActorRuntime.builder(Profile.SIMULATED).seed(7));
            assertEquals(first.schedule, again.schedule, "run " + run);
            assertEquals(first.trace, again.trace, "run " + run);
        }
    }

    @Test
    void anotherSeedGivesAnotherInterleaving() {
        Run first = mesh(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        Run other = mesh(ActorRuntime.builder(Profile.SIMULATED).seed(8));
        assertNotEquals(first.schedule.steps(), other.schedule.steps());
        assertNotEquals(first.trace, other.trace);
    }

    @Test
    void aReplayReproducesTheWholeInterleavingWhateverTheSeed() {
        Run original = mesh(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        Run replayed = mesh(ActorRuntime.builder(Profile.SIMULATED).replay(original.schedule).seed(12345));
        assertNull(replayed.divergence);
        assertEquals(original.schedule.steps(), replayed.schedule.steps());
        assertEquals(original.trace, replayed.trace);
    }

    @Test
    void aLaneDrivenByHandRecordsItsPicksAndAReplayForcesThem() {
        Run original = handDriven(ActorRuntime.builder(Profile.SIMULATED).seed(3));
        assertEquals(12, original.schedule.steps().size(), "six starts and six messages");
        assertEquals(Set.of("ui"), queues(original.schedule));
        Run replayed = handDriven(ActorRuntime.builder(Profile.SIMULATED).replay(original.schedule).seed(99));
        assertNull(replayed.divergence);
        assertEquals(original.trace, replayed.trace);
    }

    @Test
    void aSimulatedBudgetIsVirtualTimeSoTheWallClockNeverEndsARun() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            List<Integer> seen = new ArrayList<>();
            runtime.spawn("chain", () -> (context, message) -> {
                int n = (Integer) message;
                seen.add(n);
                if (n < 200) {
                    context.self().tell(n + 1);
                }
            }).tell(1);
            long before = runtime.nanoTime();
            // A nanosecond of wall clock is gone after the first turn; turns take no virtual time.
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofNanos(1)));
            assertEquals(200, seen.size());
            assertEquals(before + 1, runtime.nanoTime(), "the run spent its window of virtual time, no more");
        }
    }

    @Test
    void aSimulatedRunCarriesTheClockToTimersDueWithinItsBudget() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            long start = runtime.nanoTime();
            List<Long> firedAt = new ArrayList<>();
            runtime.spawn("sleeper", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    for (long seconds : new long[] {20, 1, 5}) {
                        context.delay(Duration.ofSeconds(seconds), c -> firedAt.add((c.nanoTime() - start) / SECOND));
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertEquals(RunStatus.TIMERS_PENDING, runtime.runUntilIdle(Duration.ZERO));
            assertEquals(start, runtime.nanoTime(), "no budget: the clock does not move");
            assertEquals(List.of(), firedAt);

            assertEquals(RunStatus.TIMERS_PENDING, runtime.runUntilIdle(Duration.ofSeconds(10)));
            assertEquals(List.of(1L, 5L), firedAt, "each timer ran at its own virtual instant");
            assertEquals(start + 10 * SECOND, runtime.nanoTime(), "the 20 s timer lies beyond the window's end");

            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(10)));
            assertEquals(List.of(1L, 5L, 20L), firedAt);
            assertEquals(start + 20 * SECOND, runtime.nanoTime());
        }
    }

    @Test
    void aTurnBudgetStopsAProgramThatNeverGoesIdle() {
        for (Profile profile : List.of(Profile.SINGLE_THREAD, Profile.SIMULATED)) {
            try (ActorRuntime runtime = ActorRuntime.create(profile)) {
                AtomicInteger handled = new AtomicInteger();
                runtime.spawn("spinner", () -> (context, message) -> {
                    handled.incrementAndGet();
                    context.self().tell(message);
                }).tell("again");
                long before = runtime.nanoTime();
                assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ofHours(1), 50), profile.name());
                assertEquals(49, handled.get(), profile + ": the start turn and 49 messages");
                assertEquals(1, runtime.metrics().normalQueued(), profile.name());
                if (profile == Profile.SIMULATED) {
                    assertEquals(before, runtime.nanoTime(), "turns take no virtual time");
                }
            }
        }
    }

    @Test
    void aTurnBudgetSpentWithATimerDueInTheWindowLeavesTheClockThere() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            long start = runtime.nanoTime();
            List<String> ran = new ArrayList<>();
            runtime.spawn("once", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    ran.add("started");
                    context.delay(Duration.ofSeconds(1), c -> ran.add("timer"));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ofSeconds(5), 1), "the timer is work left in the window");
            assertEquals(start, runtime.nanoTime());
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(5)));
            assertEquals(List.of("started", "timer"), ran);
            assertEquals(start + 5 * SECOND, runtime.nanoTime());
        }
    }

    private record Run(RunStatus status, Schedule schedule, List<String> trace, String divergence) {
    }

    private static Set<String> queues(Schedule schedule) {
        Set<String> queues = new TreeSet<>();
        for (Schedule.Step step : schedule.steps()) {
            queues.add(step.queue());
        }
        return queues;
    }

    /**
     * Two normal actors and three lane actors on two lanes pass numbered hops around. Every fifth hop fires
     * a signal owned by a normal hub actor, every seventh goes the long way, through a timer. Nothing but
     * the runtime drives anything: the seed decides the whole order.
     */
    private static Run mesh(RuntimeBuilder builder) {
        try (ActorRuntime runtime = builder.build()) {
            runtime.registerLane("audio");
            runtime.registerLane("frame");
            List<String> trace = new ArrayList<>();
            AtomicReference<Signal> hubSignal = new AtomicReference<>();
            runtime.spawn("hub", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    hubSignal.set(context.signal(SignalMode.MULTISHOT,
                            (c, payload) -> trace.add("hub signal from " + payload[0]), null));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ZERO); // the hub's signal exists before anyone fires it

            List<ActorRef> actors = new ArrayList<>();
            String[][] placements = {{"n0", null}, {"n1", null}, {"synth", "audio"}, {"mixer", "audio"}, {"sprite", "frame"}};
            for (int i = 0; i < placements.length; i++) {
                int me = i;
                String name = placements[i][0];
                java.util.function.Supplier<Behavior> behavior = () -> (context, message) -> {
                    int hops = (Integer) message;
                    trace.add(name + ":" + hops);
                    if (hops == 0) {
                        return;
                    }
                    ActorRef next = actors.get((me * 3 + hops) % actors.size());
                    if (hops % 5 == 0) {
                        hubSignal.get().fire(new byte[] {(byte) me});
                    }
                    if (hops % 7 == 0) {
                        context.delay(Duration.ofMillis(hops), c -> {
                            trace.add(name + " timer " + hops);
                            next.tell(hops - 1);
                        });
                    } else {
                        next.tell(hops - 1);
                    }
                };
                actors.add(placements[i][1] == null ? runtime.spawn(name, behavior)
                        : runtime.spawnOnLane(placements[i][1], name, behavior));
            }
            for (ActorRef actor : actors) {
                actor.tell(40);
            }
            RunStatus status = runtime.runUntilIdle(Duration.ofSeconds(1));
            return new Run(status, runtime.schedule(), trace, runtime.replayDivergence());
        }
    }

    /** Six actors on one lane, driven by hand from the simulating thread. */
    private static Run handDriven(RuntimeBuilder builder) {
        try (ActorRuntime runtime = builder.build()) {
            ExecutionLane lane = runtime.registerLane("ui");
            List<String> trace = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String name = "view" + i;
                runtime.spawnOnLane("ui", name, () -> (context, message) -> trace.add(name)).tell("paint");
            }
            assertEquals(new DriveResult(DriveStatus.OK, 12, 0), lane.drive(0));
            return new Run(RunStatus.IDLE, runtime.schedule(), trace, runtime.replayDivergence());
        }
    }

    @Test
    void theVirtualClockStopsAtItsEndAndAdvanceRefusesToPassItInsteadOfWrapping() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).build()) {
            assertEquals(1_000_000_000L, runtime.nanoTime(), "virtual time starts at 1 s");
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(ActorContext.NEVER)); // an idle run ends at the window's end
            assertEquals(Long.MAX_VALUE, runtime.nanoTime());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> runtime.advance(Duration.ofMillis(1)));
            assertTrue(e.getMessage().contains("cannot move PT0.001S further"), e.getMessage());
            assertEquals(Long.MAX_VALUE, runtime.nanoTime(), "refused: the clock did not wrap");
            assertEquals(0, runtime.advance(Duration.ZERO));
        }
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).build()) {
            assertThrows(IllegalArgumentException.class, () -> runtime.advance(Duration.ofSeconds(Long.MAX_VALUE)), "too long for a long of ns");
            assertEquals("duration", assertThrows(NullPointerException.class, () -> runtime.advance(null)).getMessage());
        }
    }

    @Test
    void aTurnCannotMoveTheVirtualClockNorStartADrain() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).build()) {
            AtomicReference<Throwable> advance = new AtomicReference<>();
            AtomicReference<Throwable> drain = new AtomicReference<>();
            runtime.spawn("clockwork", () -> (context, message) -> {
                advance.set(assertThrows(IllegalStateException.class, () -> runtime.advance(Duration.ofMillis(10))));
                drain.set(assertThrows(IllegalStateException.class, runtime::drain));
            }).tell("go");
            long before = runtime.nanoTime();
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(before, runtime.nanoTime());
            assertTrue(advance.get().getMessage().contains("called from inside a turn"), advance.get().getMessage());
            assertTrue(drain.get().getMessage().contains("called from inside a turn"), drain.get().getMessage());
        }
    }

    @Test
    void aSeedIsRefusedByAProfileWithNothingToSeed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ActorRuntime.builder(Profile.SINGLE_THREAD).seed(5).build());
        assertTrue(e.getMessage().contains("SINGLE_THREAD has none to seed"), e.getMessage());
        IllegalArgumentException limit = assertThrows(IllegalArgumentException.class,
                () -> ActorRuntime.builder(Profile.HOSTED).scheduleLimit(5).build());
        assertTrue(limit.getMessage().contains("HOSTED records none"), limit.getMessage());
    }

    @Test
    void aClosedRuntimesClockNoLongerMovesAndSaysSo() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).build();
        runtime.close();
        assertEquals("advance() was called on a closed runtime",
                assertThrows(IllegalStateException.class, () -> runtime.advance(Duration.ofMillis(1))).getMessage());
        assertEquals("drain() or runUntilIdle() was called on a closed runtime",
                assertThrows(IllegalStateException.class, runtime::drain).getMessage());
        assertEquals(RunStatus.CLOSED, runtime.runUntilIdle(Duration.ZERO));
    }

    @Test
    void settingsOfHostedsThreadsAreRefusedByTheOtherProfilesNamingEach() {
        IllegalArgumentException simulated = assertThrows(IllegalArgumentException.class,
                () -> ActorRuntime.builder(Profile.SIMULATED).workers(4).idleStrategy(IdleStrategy.DEFAULT).build());
        assertEquals("idleStrategy(...), workers(...) configure the HOSTED profile's threads; this runtime is SIMULATED,"
                + " which runs actors on the thread that drains it", simulated.getMessage());
        IllegalArgumentException single = assertThrows(IllegalArgumentException.class,
                () -> ActorRuntime.builder(Profile.SINGLE_THREAD).blockingThreads(2).build());
        assertTrue(single.getMessage().startsWith("blockingThreads(...) configures the HOSTED profile's threads; this runtime is"
                + " SINGLE_THREAD"), single.getMessage());
        try (ActorRuntime lanes = ActorRuntime.builder(Profile.SINGLE_THREAD).turnsPerRun(2).build()) {
            assertEquals(Profile.SINGLE_THREAD, lanes.profile(), "turnsPerRun is every profile's: its lanes' drives use it");
        }
    }
}
