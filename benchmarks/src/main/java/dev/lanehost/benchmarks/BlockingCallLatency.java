package dev.lanehost.benchmarks;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The blocking gate call's latency, every call timed, against its floor in the same JVM, round by round: a caller
 * thread calls an actor on a HOSTED worker (the default idle strategy) through {@link CallGate#call}, then, in the
 * same round, hands the same arguments to a server thread that busy-spins on a JCTools MPSC queue and answers into the
 * call object ({@link CallGateBenchmark.Floor}, {@code handoff=queue}): the least any queued call between two threads
 * costs, with no actor, gate, status or timeout. Each round sits between placement probes; a round counts as close
 * or far only if all three of its probes say so, and the summary is the median across such rounds of each
 * percentile, with the ratio ours / floor per round, then the percentiles of every call of those rounds together and
 * the share of calls over 5 µs.
 *
 * <p>Why not JMH's sampling mode here: JMH samples one call in many and its forks put the two sides in separate
 * rounds of the host's placement; this runs both in one JVM, alternating every few hundred milliseconds, and times every
 * call. The floor's server is stopped while ours runs (it spins on a core of its own), and our runtime's workers park
 * while the floor runs.
 *
 * <p>The entry ({@code java}, the default): {@link CallGate#call} with plain arguments, which the call copies (a new
 * {@code ArrayList}); {@code cbor}: {@link CallGate#callEncoded(java.lang.foreign.MemorySegment, long, long, long,
 * CallReply)} through a CBOR gate with a reply the caller keeps, as a native host calls through the host table (nothing
 * allocated: the call's objects are the reply's, used again and again).
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m -XX:+AlwaysPreTouch
 * -cp benchmarks.jar dev.lanehost.benchmarks.BlockingCallLatency [rounds=12] [calls=200000] [warmup=2] [entry=java|java-list|cbor]}
 */
public final class BlockingCallLatency {
    static final List<Object> ARGS = CallGateBenchmark.SMALL_ARGS;
    private static final long HIGHEST_RECORDABLE_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int PROBE_ROUND_TRIPS = 20_000;
    static final double[] PERCENTILES = {50, 90, 99, 99.9};
    /** A call this slow is counted apart in the summary: well past p99 in any placement, a wake-up's order. */
    private static final long SLOW_NANOS = 5_000;
    private static final String USAGE = "BlockingCallLatency [rounds=12] [calls=200000] [warmup=2] [entry=java|java-list|cbor]";

    private BlockingCallLatency() {
    }

    /** One round: the placement around it and both sides' histograms. */
    record Round(int index, double before, double middle, double after, Histogram ours, Histogram floor) {
        /** "close" or "far" if all three probes say so, else "mixed". */
        String placement() {
            double low = Math.min(before, Math.min(middle, after));
            double high = Math.max(before, Math.max(middle, after));
            return low >= PlacementProbe.FAR_FROM_NANOS ? "far" : high < PlacementProbe.CLOSE_BELOW_NANOS ? "close" : "mixed";
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Arguments.count(args, 0, "rounds", 12, 1, USAGE);
        int calls = Arguments.count(args, 1, "calls", 200_000, 1, USAGE);
        int warmup = Arguments.count(args, 2, "warmup", 2, 0, USAGE);
        String entry = args.length > 3 ? args[3] : "java";
        if (!BlockingCallSide.ENTRIES.contains(entry)) {
            Arguments.refuse("entry must be one of " + BlockingCallSide.ENTRIES + ", got '" + entry + "'", USAGE);
        }
        try (BlockingCallSide ours = new BlockingCallSide(entry)) {
            List<Round> measured = new ArrayList<>();
            for (int r = 0; r < warmup + rounds; r++) {
                double before = PlacementProbe.measure(PROBE_ROUND_TRIPS).medianNanos();
                Histogram oursRound = ours.round(calls);
                double middle = PlacementProbe.measure(PROBE_ROUND_TRIPS).medianNanos();
                Histogram floor = floor(calls);
                double after = PlacementProbe.measure(PROBE_ROUND_TRIPS).medianNanos();
                Round round = new Round(r - warmup + 1, before, middle, after, oursRound, floor);
                if (r >= warmup) {
                    measured.add(round);
                    System.out.println(line(round));
                }
            }
            System.out.println();
            for (String placement : List.of("close", "far")) {
                System.out.println(summary(measured, placement));
            }
        }
    }

    /** The floor's round: {@code calls} calls through {@link CallGateBenchmark.Floor}'s queue, each timed. */
    static Histogram floor(int calls) throws InterruptedException {
        CallGateBenchmark.Floor floor = new CallGateBenchmark.Floor();
        floor.handoff = "queue";
        floor.setUp();
        try {
            return timed(calls, i -> {
                Object answer = floor.call(ARGS);
                if (!ARGS.get(0).equals(answer)) {
                    throw new IllegalStateException("the floor answered " + answer);
                }
            });
        } finally {
            floor.tearDown();
        }
    }

    /** Times {@code calls} calls one by one (each checks its own answer) into a new histogram. */
    static Histogram timed(int calls, IntConsumer call) {
        Histogram histogram = histogram();
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            call.accept(i);
            histogram.recordValue(Math.min(System.nanoTime() - start, HIGHEST_RECORDABLE_NANOS));
        }
        return histogram;
    }

    static Histogram histogram() {
        return new Histogram(HIGHEST_RECORDABLE_NANOS, 3);
    }

    private static String line(Round round) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "round %2d %-5s placement %.0f/%.0f/%.0f ns",
                round.index(), round.placement(), round.before(), round.middle(), round.after()));
        percentiles(line, "ours", round.ours()::getValueAtPercentile);
        percentiles(line, "floor", round.floor()::getValueAtPercentile);
        line.append(String.format(Locale.ROOT, "  ours/floor p50 %.2fx",
                round.ours().getValueAtPercentile(50) / (double) round.floor().getValueAtPercentile(50)));
        return line.toString();
    }

    private static String summary(List<Round> rounds, String placement) {
        List<Round> these = rounds.stream().filter(r -> r.placement().equals(placement)).toList();
        if (these.isEmpty()) {
            return placement + ": no round";
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-5s %2d rounds, medians:", placement, these.size()));
        percentiles(line, "ours", percentile -> median(these, r -> r.ours().getValueAtPercentile(percentile)));
        percentiles(line, "floor", percentile -> median(these, r -> r.floor().getValueAtPercentile(percentile)));
        line.append(String.format(Locale.ROOT, "  ours/floor p50 %.2fx",
                median(these, r -> r.ours().getValueAtPercentile(50) / (double) r.floor().getValueAtPercentile(50))));
        Histogram ours = histogram();
        Histogram floor = histogram();
        for (Round round : these) {
            ours.add(round.ours());
            floor.add(round.floor());
        }
        line.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-5s every call of those rounds:   ", placement));
        percentiles(line, "ours", ours::getValueAtPercentile);
        line.append(String.format(Locale.ROOT, " over %d us %.2f%%", SLOW_NANOS / 1000, slowPercent(ours)));
        percentiles(line, "floor", floor::getValueAtPercentile);
        line.append(String.format(Locale.ROOT, " over %d us %.2f%%", SLOW_NANOS / 1000, slowPercent(floor)));
        return line.toString();
    }

    /** Appends "  label p50 … p99.9 …", each value in whole nanoseconds. */
    private static void percentiles(StringBuilder line, String label, DoubleUnaryOperator valueAt) {
        line.append("  ").append(label);
        for (double percentile : PERCENTILES) {
            line.append(String.format(Locale.ROOT, " p%s %.0f", trim(percentile), valueAt.applyAsDouble(percentile)));
        }
    }

    /** The share of calls slower than {@link #SLOW_NANOS}, in percent. */
    private static double slowPercent(Histogram histogram) {
        long total = histogram.getTotalCount();
        return total == 0 ? 0 : 100.0 * (total - histogram.getCountBetweenValues(0, SLOW_NANOS)) / total;
    }

    /** The median of {@code value} over {@code items}. */
    static <T> double median(List<T> items, ToDoubleFunction<T> value) {
        double[] values = items.stream().mapToDouble(value).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    static String trim(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }
}
