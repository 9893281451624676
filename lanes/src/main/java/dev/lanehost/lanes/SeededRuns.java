package dev.lanehost.lanes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Runs a test scenario under many SIMULATED seeds, and reruns exactly the interleaving of one that failed: the
 * harness lanehost's own conformance tests use, for yours.
 *
 * <pre>{@code
 * void transfersNeverOverdraw() {                 // a JUnit test
 *     SeededRuns.forEachSeed("transfers", 200, runtime -> {
 *         Bank bank = Bank.start(runtime);        // your actors, on the runtime it is given
 *         runtime.runUntilIdle(Duration.ofSeconds(5));
 *         assertTrue(bank.total() == 1_000);      // any failure (an AssertionError, an exception) fails the seed
 *     });
 * }
 * }</pre>
 *
 * When a seed fails, its schedule (every pick, {@link ActorRuntime#schedule()}) goes to
 * {@code <dir>/<name>-seed-<seed>.schedule}, where {@code <dir>} is {@code -Dlanehost.replays} or {@code target/replays},
 * and the {@link AssertionError} thrown names the seed and the file. Run the test again with
 * {@code -Dlanehost.replay=<that file>} and the scenario runs once, under that schedule, instead of the seeds: the
 * same picks, so the failure comes back as it was, with a debugger attached if you like. A replay of a program
 * since changed reports where it went its own way in {@link ActorRuntime#replayDivergence()}. Only the first
 * {@link RuntimeBuilder#scheduleLimit} picks are kept; a longer run is reproduced by its seed alone
 * ({@code RuntimeBuilder.seed}).
 */
public final class SeededRuns {
    /** The directory failing schedules are written to: {@code -Dlanehost.replays}, else {@code target/replays}. */
    public static Path replays() {
        String dir = System.getProperty("lanehost.replays");
        return dir == null || dir.isBlank() ? Path.of("target", "replays") : Path.of(dir);
    }

    /** A scenario: it builds nothing itself, it runs against the runtime it is given and asserts. */
    @FunctionalInterface
    public interface Scenario {
        void run(ActorRuntime runtime) throws Exception;
    }

    private SeededRuns() {
    }

    /**
     * Runs {@code scenario} for seeds 0..seeds-1, each on a fresh SIMULATED runtime closed afterwards, or once for
     * the schedule in {@code -Dlanehost.replay}.
     *
     * @param name a name for the scenario, part of the failing schedule's file name
     * @throws AssertionError for the first seed that fails, naming the seed and its schedule's file
     */
    public static void forEachSeed(String name, int seeds, Scenario scenario) {
        forEachSeed(name, seeds, UnaryOperator.identity(), scenario);
    }

    /** As {@link #forEachSeed(String, int, Scenario)}, with settings of your own for each runtime (a budget, a poll cost). */
    public static void forEachSeed(String name, int seeds, UnaryOperator<RuntimeBuilder> settings, Scenario scenario) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(scenario, "scenario");
        if (seeds <= 0) {
            throw new IllegalArgumentException("run at least one seed; got " + seeds);
        }
        String replay = System.getProperty("lanehost.replay");
        if (replay != null && !replay.isBlank()) {
            Schedule schedule = read(Path.of(replay));
            run(name, settings.apply(ActorRuntime.builder(Profile.SIMULATED).replay(schedule)), schedule.seed(), scenario);
            return;
        }
        for (long seed = 0; seed < seeds; seed++) {
            run(name, settings.apply(ActorRuntime.builder(Profile.SIMULATED).seed(seed)), seed, scenario);
        }
    }

    private static void run(String name, RuntimeBuilder builder, long seed, Scenario scenario) {
        ActorRuntime runtime = builder.build();
        try {
            scenario.run(runtime);
        } catch (Throwable failure) {
            Path file = replays().resolve(name + "-seed-" + seed + ".schedule").toAbsolutePath();
            String where;
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, runtime.schedule().toText());
                where = runtime.schedulePicks() > runtime.schedule().steps().size()
                        ? "its first " + runtime.schedule().steps().size() + " of " + runtime.schedulePicks() + " picks are in " + file
                                + " (RuntimeBuilder.scheduleLimit); rerun the whole run with RuntimeBuilder.seed(" + seed + ")"
                        : "its schedule is in " + file + "; rerun exactly it with -Dlanehost.replay=" + file;
            } catch (IOException | RuntimeException e) {
                where = "its schedule could not be written to " + file + " (" + e + "); rerun it with RuntimeBuilder.seed(" + seed + ")";
            }
            throw new AssertionError(name + " failed with seed " + seed + ": " + failure + "\n" + where, failure);
        } finally {
            runtime.close();
        }
    }

    /** The schedule in {@code file} ({@link Schedule#toText()}'s form). */
    public static Schedule read(Path file) {
        try {
            return Schedule.parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the schedule " + file, e);
        }
    }
}
