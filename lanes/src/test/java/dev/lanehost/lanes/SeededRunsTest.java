package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing seed's schedule goes to a file the failure names; replaying that file reproduces the failure exactly. */
class SeededRunsTest {

    /** Three actors race to append to a shared list; the scenario "fails" when c comes first. */
    private static List<String> race(ActorRuntime runtime) {
        List<String> order = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            runtime.spawn(name, () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    order.add(name);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
        }
        runtime.runUntilIdle(Duration.ZERO);
        return order;
    }

    @Test
    void aFailingSeedsScheduleIsWrittenAndItsReplayFailsTheSameWay() throws Exception {
        List<List<String>> seen = new ArrayList<>();
        AssertionError failure = assertThrows(AssertionError.class, () -> SeededRuns.forEachSeed("race", 50, runtime -> {
            List<String> order = race(runtime);
            seen.add(order);
            if (order.get(0).equals("c")) {
                throw new AssertionError("c came first: " + order);
            }
        }));
        List<String> failingOrder = seen.get(seen.size() - 1);
        long seed = seen.size() - 1;
        Path file = SeededRuns.replays().resolve("race-seed-" + seed + ".schedule");
        assertTrue(failure.getMessage().contains("seed " + seed) && failure.getMessage().contains(file.toAbsolutePath().toString()),
                failure.getMessage());
        assertTrue(Files.exists(file));

        Schedule schedule = SeededRuns.read(file);
        assertEquals(seed, schedule.seed());
        for (long otherSeed : new long[] {seed + 1, seed + 7, 12_345}) { // the schedule forces the picks, whatever seed follows
            try (ActorRuntime replayed = ActorRuntime.builder(Profile.SIMULATED).replay(schedule).seed(otherSeed).build()) {
                assertEquals(failingOrder, race(replayed));
                assertEquals(null, replayed.replayDivergence());
            }
        }
    }

    @Test
    void failingSchedulesGoWhereLanehostReplaysSaysAndAFailureWithoutAMessageIsStillNamed(@TempDir Path dir) {
        String before = System.getProperty("lanehost.replays");
        System.setProperty("lanehost.replays", dir.toString());
        try {
            AssertionError failure = assertThrows(AssertionError.class, () -> SeededRuns.forEachSeed("silent", 3, runtime -> {
                throw new IllegalStateException();
            }));
            Path file = dir.resolve("silent-seed-0.schedule").toAbsolutePath();
            assertTrue(Files.exists(file), "written under -Dlanehost.replays");
            assertTrue(failure.getMessage().startsWith("silent failed with seed 0: java.lang.IllegalStateException\n"), failure.getMessage());
            assertEquals(0, SeededRuns.read(file).seed());
        } finally {
            if (before == null) {
                System.clearProperty("lanehost.replays");
            } else {
                System.setProperty("lanehost.replays", before);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> SeededRuns.forEachSeed("none", 0, runtime -> { }));
        AssertionError cut = assertThrows(AssertionError.class, () -> SeededRuns.forEachSeed("long", 1,
                builder -> builder.scheduleLimit(1), runtime -> {
                    runtime.spawn("a", () -> (context, message) -> { });
                    runtime.spawn("b", () -> (context, message) -> { });
                    runtime.runUntilIdle(Duration.ZERO);
                    throw new IllegalStateException("fails after two picks");
                }));
        assertTrue(cut.getMessage().contains("its first 1 of 2 picks are in ")
                && cut.getMessage().contains("rerun the whole run with RuntimeBuilder.seed(0)"), cut.getMessage());
    }

    @Test
    void aScheduleSurvivesItsTextFormIncludingAwkwardLaneNames() {
        Schedule schedule = new Schedule(42, List.of(new Schedule.Step("normal", 1), new Schedule.Step("a\tlane\\with\nbreaks", 7)));
        assertEquals(schedule, Schedule.parse(schedule.toText()));
        assertEquals("line 2 of the schedule is not 'actorId<TAB>queue': seven normal",
                assertThrows(IllegalArgumentException.class, () -> Schedule.parse("lanehost-schedule 1 seed 3\nseven normal")).getMessage());
        assertEquals("not a lanehost schedule: the first line must start with 'lanehost-schedule 1 seed '",
                assertThrows(IllegalArgumentException.class, () -> Schedule.parse("hello")).getMessage());
        assertEquals(schedule, Schedule.parse(schedule.toText() + "\n  \n"), "trailing blank lines are no steps");
        assertEquals("line 2 of the schedule names no queue after its tab: 7\t",
                assertThrows(IllegalArgumentException.class, () -> Schedule.parse("lanehost-schedule 1 seed 3\n7\t\n1\tnormal")).getMessage());
    }

    @Test
    void aLongRunKeepsTheFirstPicksUpToTheLimitAndCountsTheRest() {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).seed(5).scheduleLimit(10).build()) {
            int[] left = {100};
            ActorRef looper = runtime.spawn("looper", () -> (context, message) -> {
                if (--left[0] > 0) {
                    context.self().tell(message);
                }
            });
            looper.tell("go");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(10, runtime.schedule().steps().size(), "the first ten picks");
            assertEquals(101, runtime.schedulePicks(), "the start and a hundred turns, all picked");
        }
        try (ActorRuntime unrecorded = ActorRuntime.builder(Profile.SIMULATED).scheduleLimit(0).build()) {
            unrecorded.spawn("one", () -> (context, message) -> { });
            unrecorded.runUntilIdle(Duration.ZERO);
            assertEquals(List.of(), unrecorded.schedule().steps());
            assertEquals(1, unrecorded.schedulePicks());
        }
        assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.SIMULATED).scheduleLimit(-1));
    }
}
