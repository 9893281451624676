package dev.lanehost.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pools the measured rounds of several {@link RingLatency} runs (their {@code ring-latency.txt}) and
 * prints the same summaries RingLatency prints for one run: the median across rounds of each
 * percentile, over all rounds, the undisturbed close-placement rounds and the undisturbed far ones.
 *
 * <p>Usage: {@code LatencySummary runDirectory...}
 */
public final class LatencySummary {
    /** A round line as RingLatency prints it. */
    private static final Pattern ROUND = Pattern.compile(
            "^round \\d+\\s+(\\w+)\\s+p50\\s+(\\d+)\\s+p90\\s+(\\d+)\\s+p99\\s+(\\d+)\\s+p99\\.9\\s+(\\d+).*"
                    + "placement (\\d+)/(\\d+) ns.*foreign (\\d+)%");

    private LatencySummary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: LatencySummary runDirectory... (each holding ring-latency.txt)");
            System.exit(2);
        }
        Map<String, List<RingLatency.RoundResult>> results = new LinkedHashMap<>();
        for (String run : args) {
            for (String line : Files.readAllLines(Path.of(run, "ring-latency.txt"))) {
                Matcher m = ROUND.matcher(line);
                if (m.find()) {
                    double[] percentiles = {Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
                            Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5))};
                    results.computeIfAbsent(m.group(1), name -> new ArrayList<>()).add(new RingLatency.RoundResult(
                            percentiles, Double.parseDouble(m.group(6)), Double.parseDouble(m.group(7)),
                            Double.parseDouble(m.group(8))));
                }
            }
        }
        System.out.println("Pooled over " + args.length + " runs: " + String.join(", ", args));
        for (RingLatency.Selection selection : RingLatency.Selection.values()) {
            RingLatency.summarize(results, selection);
        }
        System.out.println("(a ratio below 1.00 means ours is faster)");
    }
}
