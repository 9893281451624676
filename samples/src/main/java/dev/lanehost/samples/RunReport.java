package dev.lanehost.samples;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The lines and files a JACK run reports besides its verdict — jackd's late cycles, the scheduling the process threads
 * got, the slow callbacks, callback durations, the collectors' activity, the load — shared by {@link AudioPathProbe} and
 * {@link AudioDuplexDemo}.
 */
final class RunReport {
    private RunReport() {
    }

    /**
     * jackd's late-cycle lines with the time they were read (within 20 ms of the event) into {@code late-cycles.txt},
     * to line up with the slow callbacks and the JVM's log.
     */
    static void writeLateCycles(JackLogWatch watch, Path directory) {
        long jvmStart = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(ManagementFactory.getRuntimeMXBean().getUptime());
        StringBuilder lines = new StringBuilder("# read at (System.nanoTime), JVM uptime ms (approx.), jackd's line\n");
        for (JackLogWatch.Line line : watch.linesContaining("was not finished")) {
            lines.append(line.nanos()).append(' ').append(String.format("%.1f", (line.nanos() - jvmStart) / 1e6)).append(' ')
                    .append(line.text()).append('\n');
        }
        Path file = directory.resolve("late-cycles.txt");
        try {
            Files.writeString(file, lines);
            System.out.println("jackd's late-cycle lines, dated: " + file);
        } catch (IOException e) {
            System.out.println("late cycles: could not write " + file + ": " + e.getMessage());
        }
    }

    /** The scheduling the process threads really got (read back from /proc), and jackd's real-time threads. */
    static void printScheduling(JackServer server, JackClient probe, JackClient plain) {
        try {
            System.out.printf("scheduling (read back): lanehost process thread %d %s, plain process thread %d %s; jackd (asked for %s): %s%n",
                    probe.stats().processThreadId(), ThreadScheduling.ofOwnThread(probe.stats().processThreadId()),
                    plain.stats().processThreadId(), ThreadScheduling.ofOwnThread(plain.stats().processThreadId()),
                    server.realtimePriority() > 0 ? "-R -P " + server.realtimePriority() : "--no-realtime",
                    server.threadScheduling());
        } catch (IOException | RuntimeException e) {
            System.out.println("scheduling: could not read it back: " + e);
        }
    }

    /**
     * The lanehost client's callbacks longer than half a period, with their start on the JVM's nanoTime clock, into
     * {@code slow-callbacks.txt} (to line up with {@code -Xlog:gc*,safepoint:file=...:timenanos}), and a summary.
     */
    static void printSlowCallbacks(JackClient probe, Path directory, long periodNanos) {
        JackClient.SlowCallbacks slow = probe.slowCallbacks();
        long jvmStart = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(ManagementFactory.getRuntimeMXBean().getUptime());
        StringBuilder lines = new StringBuilder("# start (System.nanoTime), JVM uptime ms (approx.), duration us\n");
        long overPeriod = 0;
        for (int i = 0; i < slow.startNanos().length; i++) {
            lines.append(slow.startNanos()[i]).append(' ')
                    .append(String.format("%.3f", (slow.startNanos()[i] - jvmStart) / 1e6)).append(' ')
                    .append(String.format("%.1f", slow.nanos()[i] / 1e3)).append('\n');
            if (slow.nanos()[i] > periodNanos) {
                overPeriod++;
            }
        }
        Path file = directory.resolve("slow-callbacks.txt");
        try {
            Files.createDirectories(directory);
            Files.writeString(file, lines);
        } catch (IOException e) {
            System.out.println("slow callbacks: could not write " + file + ": " + e.getMessage());
        }
        System.out.printf("lanehost slow callbacks (> half a period): %,d in all; the latest %d (%d longer than a period) in %s%n",
                slow.total(), slow.startNanos().length, overPeriod, file);
    }

    static String durations(CallbackDurations last, CallbackDurations first) {
        long[] counts = last.counts();
        long[] before = first.counts();
        for (int i = 0; i < counts.length; i++) {
            counts[i] -= before[i];
        }
        return new CallbackDurations(counts, last.maxNanos()).summary();
    }

    static String gcNames() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList().toString();
    }

    static String gcActivity() {
        List<String> parts = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            parts.add(String.format("%s %,d (%,d ms)", gc.getName(), gc.getCollectionCount(), gc.getCollectionTime()));
        }
        return String.join(", ", parts);
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "(no /proc/loadavg: " + e.getMessage() + ")";
        }
    }

    static void printFirstDrives(String when, JackClient.Stats s) {
        System.out.printf("first drive %s: %.1f us (the process thread's first, began at %d ns = System.nanoTime);"
                + " slowest of its first second's drives: %.1f us%n", when, s.firstDriveNanos() / 1e3, s.firstDriveStart(),
                s.earlyMaxDriveNanos() / 1e3);
    }
}
