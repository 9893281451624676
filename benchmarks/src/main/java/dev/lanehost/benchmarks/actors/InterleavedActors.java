package dev.lanehost.benchmarks.actors;

import dev.lanehost.benchmarks.Arguments;
import dev.lanehost.benchmarks.CoreShareProbe;
import dev.lanehost.benchmarks.PlacementProbe;
import dev.lanehost.benchmarks.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An actor benchmark's scenario on lanehost and both Pekko configurations in one JVM, in short blocks taken in turn
 * (lanehost, Pekko default, Pekko tuned; the next round starts with Pekko default, so none always follows the same
 * one), each block between two {@link CoreShareProbe} readings and two short {@link PlacementProbe}s. The ratios are
 * then read between blocks that ran on the same kind of machine: both vCPUs with their cores to themselves (or both
 * shared), in one placement. JMH runs the contenders one after another, ~15 s each, and the host's placement and the
 * other tenant on our cores change within that, so a JMH run's ratio reads which contender was lucky; here every
 * contender meets every state of the machine many times.
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xms2g -Xmx2g -XX:+AlwaysPreTouch \
 *       -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.actors.InterleavedActors \
 *       [shape=pingpong64] [seconds=120] [blockMillis=200]
 * </pre>
 * Shapes: {@code pingpong64} (64 pairs, one ball each), {@code pingpong1} (one pair, 64 balls), {@code fanout} (1 →
 * 1000 → 1), as {@link PingPongBenchmark} and {@link FanOutFanInBenchmark} run them. Each contender first runs for a
 * tenth of the time unmeasured (the JIT's warm-up). A line per block ({@code block ...}), then the medians by kind of
 * block.
 *
 * <p>{@code pingpong64} takes a fourth runner in turn, {@code lanehostAlone}: lanehost with each ball bounced off one
 * actor to itself (two turns a round trip). It runs the same turns as the pairs with no switch between two actors, so
 * its ratio to the better Pekko is the most any way of running a pair could reach on the machine of that run.
 */
public final class InterleavedActors {
    private static final String USAGE =
            "InterleavedActors [shape=pingpong64|pingpong1|fanout] [seconds=120] [blockMillis=200]";
    private static final String[] CONTENDERS = {"lanehost", "pekkoDefault", "pekkoTuned"};
    /** {@code pingpong64}'s bound: lanehost's balls each bounced off one actor to itself (not a contender). */
    private static final String ALONE = "lanehostAlone";
    private static final String[] WITH_ALONE = {"lanehost", "pekkoDefault", "pekkoTuned", ALONE};
    /** Round trips of a placement probe around a block: a few milliseconds. */
    private static final int PLACEMENT_ROUND_TRIPS = 10_000;
    /** A kind of block needs this many of every contender's blocks to be compared. */
    private static final int FEWEST_BLOCKS = 5;

    /** One measured block. */
    private record Block(String contender, double rate, double coreBefore, double coreAfter, double placementNanos) {
    }

    private InterleavedActors() {
    }

    public static void main(String[] args) throws Exception {
        String shape = args.length > 0 ? args[0] : "pingpong64";
        if (!List.of("pingpong64", "pingpong1", "fanout").contains(shape)) {
            Arguments.refuse("shape must be pingpong64, pingpong1 or fanout, got '" + shape + "'", USAGE);
        }
        int seconds = Arguments.count(args, 1, "seconds", 120, 10, USAGE);
        int blockMillis = Arguments.count(args, 2, "blockMillis", 200, 10, USAGE);
        long operations = operationsPerBatch(shape);
        String[] runners = shape.equals("pingpong64") ? WITH_ALONE : CONTENDERS;
        Map<String, ActorScenario> scenarios = new LinkedHashMap<>();
        try {
            for (String name : runners) {
                scenarios.put(name, name.equals(ALONE) ? new PingPongBenchmark.OnLanehost(64, true)
                        : scenario(shape, Contender.named(name)));
            }
            System.out.println("placement before: " + PlacementProbe.measure(1_000_000));
            for (ActorScenario scenario : scenarios.values()) {
                runFor(scenario, seconds * 100L); // a tenth of the time each, unmeasured
            }
            List<Block> blocks = new ArrayList<>();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            for (int round = 0; System.nanoTime() < end; round++) {
                for (int i = 0; i < runners.length; i++) {
                    String name = runners[(round + i) % runners.length]; // each round starts with the next one
                    Block block = measureBlock(name, scenarios.get(name), operations, blockMillis);
                    blocks.add(block);
                    System.out.printf(Locale.ROOT, "block %d %s %.3f M/s, cores %.3f %.3f ns, placement %.0f ns%n",
                            round, block.contender(), block.rate() / 1e6, block.coreBefore(), block.coreAfter(),
                            block.placementNanos());
                }
            }
            System.out.println("placement after: " + PlacementProbe.measure(1_000_000));
            summarize(shape, runners, blocks);
        } finally {
            for (ActorScenario scenario : scenarios.values()) {
                scenario.close();
            }
        }
    }

    private static ActorScenario scenario(String shape, Contender contender) {
        return switch (shape) {
            case "pingpong64", "pingpong1" -> {
                int pairs = shape.equals("pingpong64") ? 64 : 1;
                yield contender.isPekko()
                        ? new PingPongBenchmark.OnPekko(contender, pairs)
                        : new PingPongBenchmark.OnLanehost(pairs);
            }
            case "fanout" -> contender.isPekko()
                    ? new FanOutFanInBenchmark.OnPekko(contender)
                    : new FanOutFanInBenchmark.OnLanehost();
            default -> throw new IllegalArgumentException("unknown shape " + shape + "; " + USAGE);
        };
    }

    /** What a batch counts: round trips for ping-pong, messages both ways for fan-out, as the JMH benchmarks do. */
    private static long operationsPerBatch(String shape) {
        return switch (shape) {
            case "pingpong64", "pingpong1" -> (long) PingPongBenchmark.BALLS * PingPongBenchmark.ROUND_TRIPS;
            case "fanout" -> 2L * FanOutFanInBenchmark.WORKERS * FanOutFanInBenchmark.ROUNDS;
            default -> throw new IllegalArgumentException("unknown shape " + shape + "; " + USAGE);
        };
    }

    /** Runs whole batches for at least {@code millis}. @return batches run and nanoseconds taken */
    private static long[] runFor(ActorScenario scenario, long millis) throws InterruptedException {
        long start = System.nanoTime();
        long until = start + millis * 1_000_000;
        long batches = 0;
        long now;
        do {
            scenario.runBatch();
            batches++;
            now = System.nanoTime();
        } while (now < until);
        return new long[] {batches, now - start};
    }

    private static Block measureBlock(String name, ActorScenario scenario, long operations, int millis)
            throws InterruptedException {
        double placementBefore = PlacementProbe.measure(PLACEMENT_ROUND_TRIPS).medianNanos();
        double coreBefore = CoreShareProbe.measure().slowest();
        long[] ran = runFor(scenario, millis);
        double coreAfter = CoreShareProbe.measure().slowest();
        double placementAfter = PlacementProbe.measure(PLACEMENT_ROUND_TRIPS).medianNanos();
        return new Block(name, ran[0] * operations * 1e9 / ran[1], coreBefore, coreAfter,
                Math.max(placementBefore, placementAfter));
    }

    /**
     * Medians by kind of block: cores to themselves before and after (or shared before and after; mixed blocks are not
     * compared), in the placement both probes around it read. Lanehost's ratio is to the better Pekko of the kind.
     */
    private static void summarize(String shape, String[] runners, List<Block> blocks) {
        double fastest = Double.MAX_VALUE;
        for (Block block : blocks) {
            fastest = Math.min(fastest, Math.min(block.coreBefore(), block.coreAfter()));
        }
        Map<String, Map<String, List<Double>>> kinds = new LinkedHashMap<>();
        for (Block block : blocks) {
            boolean sharedBefore = CoreShareProbe.shared(block.coreBefore(), fastest);
            boolean sharedAfter = CoreShareProbe.shared(block.coreAfter(), fastest);
            String cores = sharedBefore != sharedAfter ? "mixed" : sharedBefore ? "shared" : "alone";
            String placement = PlacementProbe.classify(block.placementNanos());
            for (String kind : List.of("all blocks", "cores " + cores + ", " + placement,
                    "cores " + cores + ", any placement")) {
                kinds.computeIfAbsent(kind, k -> new LinkedHashMap<>())
                        .computeIfAbsent(block.contender(), k -> new ArrayList<>())
                        .add(block.rate());
            }
        }
        System.out.printf(Locale.ROOT,
                "%s, %d blocks; the core probe's fastest reading %.3f ns, shared above %.2fx it%n", shape,
                blocks.size(), fastest, CoreShareProbe.SHARED_FROM);
        kinds.entrySet().stream().filter(kind -> !kind.getKey().startsWith("cores mixed"))
                .forEach(kind -> System.out.println(line(kind.getKey(), runners, kind.getValue())));
    }

    /**
     * "cores alone, close: lanehost 28.07 M/s (181 blocks), pekkoDefault ..., pekkoTuned ...; lanehost / best Pekko
     * 1.40x" (and lanehostAlone's ratio, when it ran), or why the kind is not compared.
     */
    private static String line(String kind, String[] runners, Map<String, List<Double>> rates) {
        StringBuilder text = new StringBuilder(kind).append(':');
        double bestPekko = 0;
        boolean comparable = true;
        for (String contender : runners) {
            List<Double> values = rates.getOrDefault(contender, List.of());
            comparable &= values.size() >= FEWEST_BLOCKS;
            if (values.isEmpty()) {
                text.append(' ').append(contender).append(" no blocks,");
                continue;
            }
            double median = Stats.median(values);
            text.append(String.format(Locale.ROOT, " %s %.2f M/s (%d blocks),", contender, median / 1e6,
                    values.size()));
            if (contender.startsWith("pekko")) {
                bestPekko = Math.max(bestPekko, median);
            }
        }
        text.setLength(text.length() - 1);
        if (comparable) {
            for (String lanehost : runners) {
                if (lanehost.startsWith("lanehost")) {
                    text.append(String.format(Locale.ROOT, "; %s / best Pekko %.2fx", lanehost,
                            Stats.median(rates.get(lanehost)) / bestPekko));
                }
            }
        } else {
            text.append("; too few blocks of a contender to compare (fewer than ").append(FEWEST_BLOCKS).append(')');
        }
        return text.toString();
    }
}
