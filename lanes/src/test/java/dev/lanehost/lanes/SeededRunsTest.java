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
        Path file = SeededRuns.REPLAYS.resolve("race-seed-" + seed + ".schedule");
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
    void aScheduleSurvivesItsTextFormIncludingAwkwardLaneNames() {
        Schedule schedule = new Schedule(42, List.of(new Schedule.Step("normal", 1), new Schedule.Step("a\tlane\\with\nbreaks", 7)));
        assertEquals(schedule, Schedule.parse(schedule.toText()));
        assertEquals("line 2 of the schedule is not 'actorId<TAB>queue': seven normal",
                assertThrows(IllegalArgumentException.class, () -> Schedule.parse("lanehost-schedule 1 seed 3\nseven normal")).getMessage());
        assertEquals("not a lanehost schedule: the first line must start with 'lanehost-schedule 1 seed '",
                assertThrows(IllegalArgumentException.class, () -> Schedule.parse("hello")).getMessage());
    }
}
