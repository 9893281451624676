package dev.lanehost.benchmarks;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * Two builds' blocking calls in one JVM, round by round, with the floor ({@link BlockingCallLatency}'s) in every round
 * beside them. Each build's benchmarks jar is loaded by {@code copies} class loaders of its own, each copy with its own
 * runtime, actor and gate ({@link BlockingCallSide}). A build's figure in a round is next to the other's in time, so
 * both meet the same placement of the two vCPUs, which separate JVMs do not: the host moves them every few seconds to
 * minutes.
 *
 * <p>Why copies: the JIT compiles each loader's classes on its own, and where it inlines what differs from one
 * compilation to the next, so one copy's p50 may sit 30 % from another's of the very same jar (an A/A run of one copy a
 * build read new/old 0.73–1.34 from run to run). A build's figure in a round is the median of its copies' p50, each
 * copy a draw of its own; the copies run in turn, old and new alternating, the order reversed every other round.
 *
 * <p>Each round prints both builds' p50 and p99 (medians of their copies), the floor's p50 and the ratio new / old;
 * the summary, for each placement (a round is close or far only if its three probes agree), the medians of those, and
 * the ratio of each build to the floor.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp benchmarks.jar
 * dev.lanehost.benchmarks.BlockingCallAb OLD.jar NEW.jar [rounds=20] [calls=200000] [entry=java|java-list|cbor] [copies=3]}:
 * each jar a benchmarks jar holding this class's {@link BlockingCallSide} (any build since it was added).
 */
public final class BlockingCallAb {
    private static final String USAGE = "BlockingCallAb OLD.jar NEW.jar [rounds=20] [calls=200000] [entry=java|java-list|cbor] [copies=3]";
    private static final int WARMUP_ROUNDS = 2;
    private static final int P50 = 0;
    private static final int P99 = 2;

    private BlockingCallAb() {
    }

    /** One round: the probes around it, each build's percentiles and the floor's p50. */
    record Round(int index, double before, double middle, double after, long[] old, long[] candidate, long floorP50) {
        String placement() {
            double low = Math.min(before, Math.min(middle, after));
            double high = Math.max(before, Math.max(middle, after));
            return low >= PlacementProbe.FAR_FROM_NANOS ? "far" : high < PlacementProbe.CLOSE_BELOW_NANOS ? "close" : "mixed";
        }

        double ratio() {
            return candidate[P50] / (double) old[P50];
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            Arguments.refuse("name the old and the new benchmarks jar", USAGE);
        }
        Path[] jars = {Path.of(args[0]), Path.of(args[1])};
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                Arguments.refuse("no jar at " + jar, USAGE);
            }
        }
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        int rounds = Arguments.count(rest, 0, "rounds", 20, 1, USAGE);
        int calls = Arguments.count(rest, 1, "calls", 200_000, 1, USAGE);
        String entry = rest.length > 2 ? rest[2] : "java";
        if (!BlockingCallSide.ENTRIES.contains(entry)) {
            Arguments.refuse("entry must be one of " + BlockingCallSide.ENTRIES + ", got '" + entry + "'", USAGE);
        }
        int copies = Arguments.count(rest, 3, "copies", 3, 1, USAGE);
        List<Side> sides = new ArrayList<>(); // old, new, old, new, ...
        try {
            for (int copy = 0; copy < copies; copy++) {
                sides.add(Side.of(jars[0], entry));
                sides.add(Side.of(jars[1], entry));
            }
            System.out.printf(Locale.ROOT, "old %s, new %s, entry %s, %d copies of each, %d calls a round%n",
                    jars[0], jars[1], entry, copies, calls);
            List<Round> measured = new ArrayList<>();
            for (int r = 0; r < WARMUP_ROUNDS + rounds; r++) {
                double before = PlacementProbe.measure(BlockingCallLatency.PROBE_ROUND_TRIPS).medianNanos();
                long[][] figures = new long[sides.size()][];
                for (int i = 0; i < sides.size(); i++) {
                    int side = r % 2 == 0 ? i : sides.size() - 1 - i;
                    figures[side] = sides.get(side).calls().apply(calls);
                }
                long[] oldRound = medianOfCopies(figures, 0);
                long[] newRound = medianOfCopies(figures, 1);
                double middle = PlacementProbe.measure(BlockingCallLatency.PROBE_ROUND_TRIPS).medianNanos();
                Histogram floor = BlockingCallLatency.floor(calls);
                double after = PlacementProbe.measure(BlockingCallLatency.PROBE_ROUND_TRIPS).medianNanos();
                Round round = new Round(r - WARMUP_ROUNDS + 1, before, middle, after, oldRound, newRound, floor.getValueAtPercentile(50));
                if (r >= WARMUP_ROUNDS) {
                    measured.add(round);
                    System.out.println(line(round));
                }
            }
            System.out.println();
            for (String placement : List.of("close", "far", "mixed")) {
                System.out.println(summary(measured, placement));
            }
        } finally {
            for (Side side : sides) {
                side.close();
            }
        }
    }

    /** Each percentile's median over one build's copies: {@code first} 0 for the old build, 1 for the new. */
    private static long[] medianOfCopies(long[][] figures, int first) {
        long[] medians = new long[figures[first].length];
        for (int p = 0; p < medians.length; p++) {
            List<Long> values = new ArrayList<>();
            for (int i = first; i < figures.length; i += 2) {
                values.add(figures[i][p]);
            }
            medians[p] = Math.round(BlockingCallLatency.median(values, Long::doubleValue));
        }
        return medians;
    }

    /**
     * One copy of a build: its jar in a class loader of its own (the JDK's platform classes from the parent), and its
     * {@link BlockingCallSide} seen through types every loader shares.
     */
    record Side(IntFunction<long[]> calls, AutoCloseable resources, URLClassLoader loader) implements AutoCloseable {
        @SuppressWarnings("unchecked")
        static Side of(Path jar, String entry) throws Exception {
            URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Object side = loader.loadClass(BlockingCallSide.class.getName()).getConstructor(String.class).newInstance(entry);
            return new Side((IntFunction<long[]>) side, (AutoCloseable) side, loader);
        }

        @Override
        public void close() throws Exception {
            try {
                resources.close();
            } finally {
                loader.close();
            }
        }
    }

    private static String line(Round round) {
        return String.format(Locale.ROOT,
                "round %2d %-5s placement %.0f/%.0f/%.0f ns  old p50 %d p99 %d  new p50 %d p99 %d  floor p50 %d  new/old p50 %.3f",
                round.index(), round.placement(), round.before(), round.middle(), round.after(), round.old()[P50],
                round.old()[P99], round.candidate()[P50], round.candidate()[P99], round.floorP50(), round.ratio());
    }

    private static String summary(List<Round> rounds, String placement) {
        List<Round> these = rounds.stream().filter(r -> r.placement().equals(placement)).toList();
        if (these.isEmpty()) {
            return placement + ": no round";
        }
        return String.format(Locale.ROOT,
                "%-5s %2d rounds, medians: old p50 %.0f p99 %.0f (%.2fx the floor)  new p50 %.0f p99 %.0f (%.2fx)  floor p50 %.0f"
                        + "  new/old p50 %.3f (rounds %.3f..%.3f)",
                placement, these.size(), BlockingCallLatency.median(these, r -> r.old()[P50]), BlockingCallLatency.median(these, r -> r.old()[P99]),
                BlockingCallLatency.median(these, r -> r.old()[P50] / (double) r.floorP50()), BlockingCallLatency.median(these, r -> r.candidate()[P50]),
                BlockingCallLatency.median(these, r -> r.candidate()[P99]), BlockingCallLatency.median(these, r -> r.candidate()[P50] / (double) r.floorP50()),
                BlockingCallLatency.median(these, r -> r.floorP50()), BlockingCallLatency.median(these, Round::ratio),
                these.stream().mapToDouble(Round::ratio).min().orElseThrow(),
                these.stream().mapToDouble(Round::ratio).max().orElseThrow());
    }
}
