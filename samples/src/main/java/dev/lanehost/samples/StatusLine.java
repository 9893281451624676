package dev.lanehost.samples;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A sample's live status line, as the main demo's: one line rewritten in place ({@code \r}) at most twice a second,
 * {@code t <elapsed> / <run> s | <the sample's counters>}, so a run of minutes shows it is alive and how far it is.
 * A whole line printed meanwhile (a progress line, a notice) goes after {@link #end}; the next update starts a new
 * status line below it.
 */
final class StatusLine {
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final PrintStream out;
    private final long startNanos;
    private final double runSeconds;
    private long nextNanos;
    private boolean open;

    /** A status line for a run of {@code runSeconds} that began at {@code startNanos} ({@link System#nanoTime()}). */
    StatusLine(PrintStream out, long startNanos, double runSeconds) {
        this.out = out;
        this.startNanos = startNanos;
        this.runSeconds = runSeconds;
        this.nextNanos = startNanos;
    }

    /**
     * Rewrites the line with {@code counters} if half a second has passed since it was last written (the first call
     * always writes); {@code counters} is asked only then.
     *
     * @return whether it wrote
     */
    boolean update(long nowNanos, Supplier<String> counters) {
        if (nowNanos - nextNanos < 0) {
            return false;
        }
        nextNanos = nowNanos + INTERVAL_NANOS;
        out.printf(runSeconds == Math.rint(runSeconds) ? "\rt %5.1f / %.0f s | %s " : "\rt %5.1f / %.1f s | %s ",
                (nowNanos - startNanos) / 1e9, runSeconds, counters.get());
        out.flush();
        open = true;
        return true;
    }

    /** Writes the line a last time with the final {@code counters}, however soon after the previous, and ends it. */
    void finish(long nowNanos, Supplier<String> counters) {
        nextNanos = nowNanos;
        update(nowNanos, counters);
        end();
    }

    /** Ends the line on screen with a newline, if one is there: before a whole line, and when the run ends. */
    void end() {
        if (open) {
            out.println();
            open = false;
        }
    }

    /**
     * How long a run is, saying what the sample's default is, for its opening line: {@code "600 s, the default (a
     * number argument sets another)"} or {@code "30 s (default 600 s)"}.
     */
    static String duration(long value, long defaultValue, String unit) {
        return value == defaultValue ? value + " " + unit + ", the default (a number argument sets another)"
                : value + " " + unit + " (default " + defaultValue + " " + unit + ")";
    }
}
