package dev.lanehost.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Measures how far apart the two threads' CPUs are right now: two threads ping-pong one volatile
 * long and the median round trip is reported.
 *
 * <p>Why: on the benchmark VM the two vCPUs are placed by the host, sometimes close together (a round
 * trip of about 60-80 ns) and sometimes far apart (300-480 ns), and that placement changes while the
 * VM runs, sometimes within a second. Every cross-thread figure swings with it (up to 5x), so the probe is printed
 * before and after each run and beside each JMH trial, to tell a slower transport from a slower
 * placement.
 *
 * <p>Protocol: the caller stores an odd value {@code 2k+1}; the echo thread, spinning on the field,
 * answers {@code 2k+2}; the caller spins until it sees the answer. Round trips are timed in batches
 * (one {@code nanoTime} pair per batch, so the clock's cost is amortized) and the median of the
 * batch means is the result. The caller stores {@code -1} to tell the echo thread to stop early.
 */
public final class PlacementProbe {
    /**
     * Below this median round trip the two vCPUs are "close". On this VM the probe shows three levels,
     * about 60, 200 and 330 ns (the issue saw about 83 and 480 ns), and throughput follows them; the
     * thresholds sit between the levels.
     */
    public static final double CLOSE_BELOW_NANOS = 150;
    /** At or above this the vCPUs are "far"; between the two thresholds, "middle". */
    public static final double FAR_FROM_NANOS = 250;

    /** A probe that cannot finish in this long (both vCPUs busy elsewhere) reports what it has. */
    private static final long TIME_LIMIT_NANOS = 10_000_000_000L;

    private static final int BATCH_ROUND_TRIPS = 1_000;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * The contended long is the middle element of an array of 33, so 128 bytes of nothing lie on
     * either side of it and no other object shares its cache lines. (Padding fields would not do:
     * HotSpot may reorder fields.)
     */
    private static final int SLOT = 16;

    private final long[] cells = new long[2 * SLOT + 1];

    private PlacementProbe() {
    }

    private long slot() {
        return (long) LONGS.getVolatile(cells, SLOT);
    }

    private void slot(long value) {
        LONGS.setVolatile(cells, SLOT, value);
    }

    /** The result of one probe. */
    public record Result(double medianNanos, double p10Nanos, double p90Nanos, int batches) {
        public String placement() {
            return classify(medianNanos);
        }

        @Override
        public String toString() {
            return String.format("median round trip %.1f ns (%s; batch p10 %.1f, p90 %.1f, %d batches of %d)",
                    medianNanos, placement(), p10Nanos, p90Nanos, batches, BATCH_ROUND_TRIPS);
        }
    }

    /** "close", "middle" or "far" for a median round trip in nanoseconds. */
    public static String classify(double medianNanos) {
        return medianNanos < CLOSE_BELOW_NANOS ? "close" : medianNanos < FAR_FROM_NANOS ? "middle" : "far";
    }

    /** Runs {@code roundTrips} round trips (rounded to whole batches of 1000) and returns the median. */
    public static Result measure(int roundTrips) {
        int batches = Math.max(1, roundTrips / BATCH_ROUND_TRIPS);
        PlacementProbe probe = new PlacementProbe();
        long lastQuestion = 2L * batches * BATCH_ROUND_TRIPS - 1;
        Thread echo = new Thread(() -> probe.echo(lastQuestion), "placement-probe-echo");
        echo.setDaemon(true);
        echo.start();

        double[] means = new double[batches];
        int done = 0;
        long question = 1;
        long start = System.nanoTime();
        while (done < batches) {
            long batchStart = System.nanoTime();
            for (int i = 0; i < BATCH_ROUND_TRIPS; i++) {
                probe.slot(question);
                long answer = question + 1;
                while (probe.slot() != answer) {
                    // Plain spin, no pause: the probe measures the cache-line transfer, not the pause.
                }
                question += 2;
            }
            long end = System.nanoTime();
            means[done++] = (end - batchStart) / (double) BATCH_ROUND_TRIPS;
            if (end - start > TIME_LIMIT_NANOS) {
                break;
            }
        }
        probe.slot(-1); // the echo thread waits for an odd value; a negative one tells it to stop
        try {
            echo.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double[] sorted = Arrays.copyOf(means, done);
        Arrays.sort(sorted);
        return new Result(percentile(sorted, 0.5), percentile(sorted, 0.1), percentile(sorted, 0.9), done);
    }

    private void echo(long lastQuestion) {
        for (long question = 1; question <= lastQuestion; question += 2) {
            long seen;
            while ((seen = slot()) != question) {
                if (seen < 0) {
                    return;
                }
            }
            slot(question + 1);
        }
    }

    private static double percentile(double[] sorted, double fraction) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.round(fraction * (sorted.length - 1));
        return sorted[index];
    }

    /**
     * Prints one probe line. Usage: {@code PlacementProbe [label] [round trips, default 1000000]}.
     */
    public static void main(String[] args) {
        String label = args.length > 0 ? args[0] : "probe";
        int roundTrips = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        measure(100_000); // warm-up: let both loops compile before the measured probe
        System.out.println("placement " + label + ": " + measure(roundTrips));
    }
}
