package dev.lanehost.lanes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The conformance harness: runs a SIMULATED scenario under many seeds. When a seed fails, its schedule goes to a
 * file the failure names, and {@code -Dlanehost.replay=<that file>} reruns exactly that interleaving, once,
 * instead of the seeds (the file's schedule forces every pick, so the failure comes back as it was).
 */
final class SeededRuns {
    /** Where failing schedules are written. */
    static final Path REPLAYS = Path.of("target", "replays");

    /** A scenario: it builds nothing itself, it runs against the runtime it is given and asserts. */
    interface Scenario {
        void run(ActorRuntime runtime) throws Exception;
    }

    private SeededRuns() {
    }

    /** Runs {@code scenario} for seeds 0..seeds-1, or once for the schedule in {@code -Dlanehost.replay}. */
    static void forEachSeed(String name, int seeds, Scenario scenario) {
        forEachSeed(name, seeds, UnaryOperator.identity(), scenario);
    }

    static void forEachSeed(String name, int seeds, UnaryOperator<RuntimeBuilder> settings, Scenario scenario) {
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
            Path file = REPLAYS.resolve(name + "-seed-" + seed + ".schedule");
            write(file, runtime.schedule());
            AssertionError named = new AssertionError(name + " failed with seed " + seed + ": " + failure.getMessage()
                    + "\nits schedule is in " + file.toAbsolutePath() + "; rerun exactly it with -Dlanehost.replay=" + file.toAbsolutePath(),
                    failure);
            throw named;
        } finally {
            runtime.close();
        }
    }

    static Schedule read(Path file) {
        try {
            return Schedule.parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the schedule " + file, e);
        }
    }

    private static void write(Path file, Schedule schedule) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, schedule.toText());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the failing schedule to " + file, e);
        }
    }
}
