package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfilesTest {

    @Test
    void runUntilIdleReportsIdleTimersPendingAndBudgetSpent() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            runtime.spawn("sleeper", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.delay(Duration.ofHours(1), c -> { });
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            assertEquals(RunStatus.TIMERS_PENDING, runtime.runUntilIdle(Duration.ofSeconds(-1)));
            // An actor that always has more work: only the budget ends the loop.
            runtime.spawn("spinner", () -> (context, message) -> context.self().tell(message)).tell("again");
            assertEquals(RunStatus.BUDGET_SPENT, runtime.runUntilIdle(Duration.ofMillis(20)));
            assertTrue(runtime.metrics().normalQueued() > 0);
        }
        ActorRuntime closed = ActorRuntime.create(Profile.SINGLE_THREAD);
        closed.close();
        assertEquals(RunStatus.CLOSED, closed.runUntilIdle(Duration.ZERO));
    }

    @Test
    void drainIsOnePassAndOnlyForTheThreadlessProfiles() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            runtime.spawn("echo", () -> (context, message) -> context.self().tell(message)).tell("x");
            runtime.spawn("other", () -> (context, message) -> { });
            assertEquals(new DrainResult(2, 0, 1), runtime.drain(), "two starts; the echo's letter waits");
            for (int i = 0; i < 3; i++) {
                assertEquals(new DrainResult(1, 0, 1), runtime.drain(), "the echo re-queues itself each pass");
            }
        }
        try (ActorRuntime hosted = ActorRuntime.create(Profile.HOSTED)) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class, hosted::drain);
            assertTrue(thrown.getMessage().contains("SINGLE_THREAD and SIMULATED"), thrown.getMessage());
        }
    }

    @Test
    void advanceIsOnlyForTheSimulatedClock() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            assertThrows(IllegalStateException.class, () -> runtime.advance(Duration.ofSeconds(1)));
            assertThrows(IllegalStateException.class, runtime::schedule);
        }
        try (ActorRuntime simulated = ActorRuntime.create(Profile.SIMULATED)) {
            long before = simulated.nanoTime();
            simulated.advance(Duration.ofSeconds(3));
            assertEquals(before + 3_000_000_000L, simulated.nanoTime());
            assertThrows(IllegalArgumentException.class, () -> simulated.advance(Duration.ofSeconds(-1)));
        }
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        Run first = gossip(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        Run second = gossip(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        Run other = gossip(ActorRuntime.builder(Profile.SIMULATED).seed(8));
        assertTrue(first.schedule.steps().size() > 100, "steps: " + first.schedule.steps().size());
        assertEquals(first.schedule, second.schedule);
        assertEquals(first.trace, second.trace);
        assertNotEquals(first.schedule.steps(), other.schedule.steps());
        assertNotEquals(first.trace, other.trace);
    }

    @Test
    void aReplayForcesTheRecordedPicksWhateverTheSeed() {
        Run original = gossip(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        Run replayed = gossip(ActorRuntime.builder(Profile.SIMULATED).replay(original.schedule).seed(12345));
        assertNull(replayed.divergence);
        assertEquals(original.schedule.steps(), replayed.schedule.steps());
        assertEquals(original.trace, replayed.trace);
    }

    @Test
    void aReplayIntoAnotherProgramReportsWhereItDiverged() {
        Run original = gossip(ActorRuntime.builder(Profile.SIMULATED).seed(7));
        List<Schedule.Step> tampered = new ArrayList<>(original.schedule.steps());
        tampered.set(20, new Schedule.Step("normal", 999));
        Run replayed = gossip(ActorRuntime.builder(Profile.SIMULATED).replay(new Schedule(7, tampered)));
        assertNotNull(replayed.divergence);
        assertTrue(replayed.divergence.startsWith("step 20: the schedule says actor 999"), replayed.divergence);
    }

    private record Run(Schedule schedule, List<String> trace, String divergence) {
    }

    /** Five actors pass numbered messages around; the handling order depends only on the schedule. */
    private static Run gossip(RuntimeBuilder builder) {
        try (ActorRuntime runtime = builder.build()) {
            List<String> trace = new ArrayList<>();
            List<ActorRef> actors = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int me = i;
                actors.add(runtime.spawn("g" + i, () -> (context, message) -> {
                    int hops = (Integer) message;
                    trace.add(me + ":" + hops);
                    if (hops > 0) {
                        actors.get((me * 3 + hops) % actors.size()).tell(hops - 1);
                    }
                }));
            }
            for (int i = 0; i < 5; i++) {
                actors.get(i).tell(30);
            }
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
            return new Run(runtime.schedule(), trace, runtime.replayDivergence());
        }
    }
}
