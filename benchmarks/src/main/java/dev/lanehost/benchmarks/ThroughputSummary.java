package dev.lanehost.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the JSON of a {@link RingThroughputBenchmark} run into the Markdown tables the ring's figures in
 * {@code RESULTS.md} come from: per transport and size, the median of the measurement iterations in GB/s
 * (10^9 bytes per second) over all iterations, over the undisturbed iterations that ran on close vCPUs
 * (both placement probes around the iteration below {@link PlacementProbe#CLOSE_BELOW_NANOS}) and over
 * those that ran on far ones; JMH's own score and error; the ratios the targets are stated in, per
 * selection; each iteration's placement and foreign CPU load; and, if the JMH log is given too, the
 * placement probe printed beside each trial.
 *
 * <p>Usage: {@code ThroughputSummary runDirectory...}: each directory is one run of
 * {@code benchmarks/run-ring.sh} ({@code ring-throughput.json}, {@code ring-throughput.txt}); with
 * several, the iterations of all runs are pooled before the medians are taken. A directory given as
 * {@code before:directory} holds a run of an older build ({@code run-ring.sh --before old.jar}): its
 * transports are reported as {@code "<transport> before"}, beside the current ones, with the after/before
 * ratios.
 */
public final class ThroughputSummary {
    private static final List<String> BASE_TRANSPORTS = List.of("javaToJava", "cToC", "agrona", "disruptor", "jctools", "cToJava", "javaToC",
            "segmentToC", "cToCWriter");
    /** Our transports, the ones a before/after comparison reruns with the older build. */
    private static final List<String> OURS = List.of("javaToJava", "cToC", "cToJava", "javaToC", "segmentToC");
    private static final String BEFORE = " before";
    /** The transports read, in table order: the current ones, then those of an older build. */
    private static List<String> TRANSPORTS = BASE_TRANSPORTS;
    private static final List<Integer> CHUNKS = List.of(512, 4096, 65536);
    /** Close placement is split here too: the closest placements the host gives differ from the rest of close. */
    private static final double CLOSEST_BELOW_NANOS = 100;

    /** A ratio target: numerator / denominator at a size, against a floor. */
    private record Target(String numerator, String denominator, int chunk, double atLeast) {
    }

    /** The ring against each peer at every size (at least 1.1x the best of them), and Java-C against the C floor. */
    private static final List<Target> TARGETS = List.of(
            new Target("javaToJava", "agrona", 512, 1.1),
            new Target("javaToJava", "disruptor", 512, 1.1),
            new Target("javaToJava", "jctools", 512, 1.1),
            new Target("javaToJava", "agrona", 4096, 1.1),
            new Target("javaToJava", "disruptor", 4096, 1.1),
            new Target("javaToJava", "jctools", 4096, 1.1),
            new Target("javaToJava", "agrona", 65536, 1.1),
            new Target("javaToJava", "disruptor", 65536, 1.1),
            new Target("javaToJava", "jctools", 65536, 1.1),
            new Target("javaToC", "cToC", 4096, 1.0),
            new Target("javaToC", "cToCWriter", 4096, 1.0),
            new Target("segmentToC", "cToC", 4096, 1.0),
            new Target("cToJava", "cToC", 4096, 1.0));

    private static final String[][] RATIOS = {
            {"javaToJava", "agrona"}, {"javaToJava", "disruptor"}, {"javaToJava", "jctools"}, {"javaToJava", "cToC"},
            {"cToJava", "cToC"}, {"javaToC", "cToC"}, {"cToJava", "javaToJava"}, {"javaToC", "javaToJava"},
            {"javaToJava", "javaToJava" + BEFORE}, {"cToC", "cToC" + BEFORE}, {"cToJava", "cToJava" + BEFORE},
            {"javaToC", "javaToC" + BEFORE}, {"javaToJava" + BEFORE, "disruptor"}, {"javaToC" + BEFORE, "cToC" + BEFORE},
            {"segmentToC", "cToC"}, {"segmentToC", "javaToC"}, {"segmentToC", "segmentToC" + BEFORE},
            {"javaToC", "cToCWriter"}, {"cToCWriter", "cToC"}};

    private ThroughputSummary() {
    }

    /** One measurement iteration: its score in GB/s, the placement probes around it (ns), and other tenants' CPU. */
    private record Iteration(double gigabytesPerSecond, double placementBefore, double placementAfter,
                             double foreignCpuPercent, double stealPercent) {
        boolean close() {
            return placementBefore < PlacementProbe.CLOSE_BELOW_NANOS && placementAfter < PlacementProbe.CLOSE_BELOW_NANOS;
        }

        boolean far() {
            return placementBefore >= PlacementProbe.FAR_FROM_NANOS && placementAfter >= PlacementProbe.FAR_FROM_NANOS;
        }

        boolean undisturbed() {
            return !(foreignCpuPercent >= CpuShare.DISTURBED_FROM_PERCENT);
        }

        /** c, m or f for the worse of the two probes; upper case if other processes took CPU meanwhile. */
        char tag() {
            char c = PlacementProbe.classify(Math.max(placementBefore, placementAfter)).charAt(0);
            return undisturbed() ? c : Character.toUpperCase(c);
        }
    }

    /** Which iterations a table counts. */
    private enum Selection {
        ALL("all iterations"),
        CLOSE("close placement, undisturbed"),
        FAR("far placement, undisturbed"),
        CLOSEST("close below " + (int) CLOSEST_BELOW_NANOS + " ns"),
        CLOSE_OUTER("close at " + (int) CLOSEST_BELOW_NANOS + "-" + (int) PlacementProbe.CLOSE_BELOW_NANOS + " ns");

        /** The selections of the ratio and target tables; the close bands have a table of their own. */
        static final List<Selection> MAIN = List.of(ALL, CLOSE, FAR);

        final String label;

        Selection(String label) {
            this.label = label;
        }

        boolean accepts(Iteration i) {
            return switch (this) {
                case ALL -> true;
                case CLOSE -> i.close() && i.undisturbed();
                case FAR -> i.far() && i.undisturbed();
                case CLOSEST -> CLOSE.accepts(i) && Math.max(i.placementBefore(), i.placementAfter()) < CLOSEST_BELOW_NANOS;
                case CLOSE_OUTER -> CLOSE.accepts(i) && !CLOSEST.accepts(i);
            };
        }
    }

    /**
     * One transport at one size, pooled over the runs read: every iteration, and per run JMH's
     * score and error in GB/s and the iterations' tags.
     */
    private record Cell(List<Iteration> iterations, List<double[]> jmhScores, List<String> runTags) {
        static Cell ofRun(List<Iteration> iterations, double score, double error) {
            StringBuilder tags = new StringBuilder();
            iterations.forEach(i -> tags.append(i.tag()));
            return new Cell(iterations, List.of(new double[] {score, error}), List.of(tags.toString()));
        }

        Cell plus(Cell other) {
            return new Cell(concat(iterations, other.iterations), concat(jmhScores, other.jmhScores), concat(runTags, other.runTags));
        }

        private static <T> List<T> concat(List<T> a, List<T> b) {
            List<T> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }

        List<Double> scores(Selection selection) {
            return iterations.stream().filter(selection::accepts).map(Iteration::gigabytesPerSecond).toList();
        }

        double median(Selection selection) {
            List<Double> scores = scores(selection);
            return scores.isEmpty() ? Double.NaN : Stats.median(scores);
        }

        double mean(java.util.function.ToDoubleFunction<Iteration> value) {
            return iterations.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ThroughputSummary runDirectory... (each holding ring-throughput.json and ring-throughput.txt)");
            System.exit(2);
        }
        Map<String, Cell> cells = new TreeMap<>();
        for (String run : args) {
            boolean before = run.startsWith("before:");
            String directory = before ? run.substring("before:".length()) : run;
            read(Path.of(directory, "ring-throughput.json"), before ? BEFORE : "").forEach((key, cell) -> cells.merge(key, cell, Cell::plus));
        }
        List<String> transports = new ArrayList<>(BASE_TRANSPORTS);
        OURS.stream().map(t -> t + BEFORE).filter(t -> CHUNKS.stream().anyMatch(c -> cells.containsKey(key(t, c)))).forEach(transports::add);
        TRANSPORTS = List.copyOf(transports);
        StringBuilder out = new StringBuilder();
        if (args.length > 1) {
            out.append("Pooled over ").append(args.length).append(" runs: ").append(String.join(", ", args)).append("\n\n");
        }

        out.append("#### A. All iterations: median GB/s (10^9 B/s) [min-max], n iterations\n\n");
        header(out, "transport");
        for (String transport : TRANSPORTS) {
            out.append("| ").append(transport);
            for (int chunk : CHUNKS) {
                Cell cell = cells.get(key(transport, chunk));
                if (cell == null) {
                    out.append(" | -");
                    continue;
                }
                List<Double> scores = cell.scores(Selection.ALL);
                out.append(String.format(Locale.ROOT, " | **%.2f** [%.2f-%.2f] n=%d", cell.median(Selection.ALL),
                        scores.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                        scores.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN), scores.size()));
            }
            out.append(" |\n");
        }

        char table = 'B';
        for (Selection selection : List.of(Selection.CLOSE, Selection.FAR)) {
            out.append("\n#### ").append(table++).append(". ").append(capitalized(selection.label))
                    .append(" iterations only: median GB/s (iterations counted / all)\n\n");
            header(out, "transport");
            for (String transport : TRANSPORTS) {
                out.append("| ").append(transport);
                for (int chunk : CHUNKS) {
                    Cell cell = cells.get(key(transport, chunk));
                    out.append(cell == null ? " | -" : String.format(Locale.ROOT, " | **%s** (%d/%d)",
                            format(cell.median(selection)), cell.scores(selection).size(), cell.iterations().size()));
                }
                out.append(" |\n");
            }
        }

        out.append("\n#### ").append(table++).append(". Close placement in two bands: median GB/s (n), ")
                .append(Selection.CLOSEST.label).append(" | ").append(Selection.CLOSE_OUTER.label).append("\n\n");
        header(out, "transport");
        for (String transport : TRANSPORTS) {
            out.append("| ").append(transport);
            for (int chunk : CHUNKS) {
                Cell cell = cells.get(key(transport, chunk));
                out.append(cell == null ? " | -" : String.format(Locale.ROOT, " | %s (%d) / %s (%d)",
                        format(cell.median(Selection.CLOSEST)), cell.scores(Selection.CLOSEST).size(),
                        format(cell.median(Selection.CLOSE_OUTER)), cell.scores(Selection.CLOSE_OUTER).size()));
            }
            out.append(" |\n");
        }

        out.append("\n#### ").append(table++).append(". JMH score (mean of all iterations) ± 99.9% error, GB/s")
                .append(args.length > 1 ? ", one per run" : "").append("\n\n");
        header(out, "transport");
        for (String transport : TRANSPORTS) {
            out.append("| ").append(transport);
            for (int chunk : CHUNKS) {
                Cell cell = cells.get(key(transport, chunk));
                out.append(" | ");
                if (cell != null) {
                    out.append(String.join("; ", cell.jmhScores().stream()
                            .map(se -> String.format(Locale.ROOT, "%.2f ± %.2f", se[0], se[1])).toList()));
                }
            }
            out.append(" |\n");
        }

        out.append("\n#### ").append(table++).append(". Ratios of medians: all / close / far iterations\n\n");
        header(out, "ratio");
        for (String[] pair : RATIOS) {
            if (!TRANSPORTS.contains(pair[0]) || !TRANSPORTS.contains(pair[1])) {
                continue;
            }
            out.append("| ").append(pair[0]).append(" / ").append(pair[1]);
            for (int chunk : CHUNKS) {
                out.append(" | ");
                List<String> ratios = new ArrayList<>();
                for (Selection selection : Selection.MAIN) {
                    ratios.add(format(ratio(cells, pair[0], pair[1], chunk, selection)));
                }
                out.append(String.join(" / ", ratios));
            }
            out.append(" |\n");
        }

        out.append("\n#### ").append(table++).append(". Targets\n\n| target");
        for (Selection selection : Selection.MAIN) {
            out.append(" | ").append(selection.label);
        }
        out.append(" |\n|---|---|---|---|\n");
        for (Target target : TARGETS) {
            out.append(String.format(Locale.ROOT, "| %s / %s at %s >= %.1fx", target.numerator(), target.denominator(),
                    size(target.chunk()), target.atLeast()));
            for (Selection selection : Selection.MAIN) {
                double ratio = ratio(cells, target.numerator(), target.denominator(), target.chunk(), selection);
                out.append(" | ").append(Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio)).append("x ")
                        .append(Double.isNaN(ratio) ? "(no data)" : ratio >= target.atLeast() ? "met" : "**missed**");
            }
            out.append(" |\n");
        }

        out.append("\n#### ").append(table++).append(". Each measurement iteration in order: placement (worse of the two probes) "
                + "c = close < ").append((int) PlacementProbe.CLOSE_BELOW_NANOS).append(" ns, m = middle, f = far >= ")
                .append((int) PlacementProbe.FAR_FROM_NANOS).append(" ns; upper case = other processes took >= ")
                .append((int) CpuShare.DISTURBED_FROM_PERCENT).append("% of a CPU; then mean foreign / steal % of a CPU\n\n");
        header(out, "transport");
        for (String transport : TRANSPORTS) {
            out.append("| ").append(transport);
            for (int chunk : CHUNKS) {
                Cell cell = cells.get(key(transport, chunk));
                out.append(" | ");
                if (cell != null) {
                    out.append('`').append(String.join(" ", cell.runTags())).append('`').append(String.format(Locale.ROOT,
                            " %.0f / %.0f", cell.mean(Iteration::foreignCpuPercent), cell.mean(Iteration::stealPercent)));
                }
            }
            out.append(" |\n");
        }

        if (args.length == 1) {
            out.append("\n#### ").append(table).append(". Placement probe around each trial (median round trip, ns: before / after)\n\n");
            header(out, "transport");
            Map<String, String> placements = placements(Path.of(args[0], "ring-throughput.txt"));
            for (String transport : TRANSPORTS) {
                out.append("| ").append(transport);
                for (int chunk : CHUNKS) {
                    String before = placements.getOrDefault("before " + key(transport, chunk), "?");
                    String after = placements.getOrDefault("after " + key(transport, chunk), "?");
                    out.append(" | ").append(before).append(" / ").append(after);
                }
                out.append(" |\n");
            }
        }
        System.out.print(out);
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static void header(StringBuilder out, String first) {
        out.append("| ").append(first);
        CHUNKS.forEach(chunk -> out.append(" | ").append(size(chunk)));
        out.append(" |\n|---");
        CHUNKS.forEach(chunk -> out.append("|---"));
        out.append("|\n");
    }

    private static double ratio(Map<String, Cell> cells, String numerator, String denominator, int chunk, Selection selection) {
        Cell top = cells.get(key(numerator, chunk));
        Cell bottom = cells.get(key(denominator, chunk));
        return top == null || bottom == null ? Double.NaN : top.median(selection) / bottom.median(selection);
    }

    private static String size(int chunk) {
        return chunk >= 1024 ? (chunk / 1024) + " KiB" : chunk + " B";
    }

    private static String key(String transport, int chunk) {
        return transport + "@" + chunk;
    }

    /** Scores in ops/us with one op per byte are MB/s; /1000 gives GB/s. */
    @SuppressWarnings("unchecked")
    private static Map<String, Cell> read(Path json, String suffix) throws IOException {
        List<Object> runs = (List<Object>) JmhJson.parse(Files.readString(json));
        Map<String, Cell> cells = new TreeMap<>();
        for (Object run : runs) {
            Map<String, Object> r = (Map<String, Object>) run;
            Map<String, Object> params = (Map<String, Object>) r.get("params");
            String transport = params.get("transport") + suffix;
            int chunk = Integer.parseInt((String) params.get("chunk"));
            Map<String, Object> metric = (Map<String, Object>) r.get("primaryMetric");
            if (!"ops/us".equals(metric.get("scoreUnit"))) {
                throw new IllegalArgumentException(r.get("benchmark") + ": expected ops/us, got " + metric.get("scoreUnit"));
            }
            Map<String, Object> secondary = (Map<String, Object>) r.get("secondaryMetrics");
            List<Double> scores = flatten(metric.get("rawData"));
            List<Double> before = secondary(secondary, "placementBeforeNs", scores.size());
            List<Double> after = secondary(secondary, "placementAfterNs", scores.size());
            List<Double> foreign = secondary(secondary, "foreignCpuPercent", scores.size());
            List<Double> steal = secondary(secondary, "stealPercent", scores.size());
            List<Iteration> iterations = new ArrayList<>();
            for (int i = 0; i < scores.size(); i++) {
                iterations.add(new Iteration(scores.get(i) / 1000, before.get(i), after.get(i), foreign.get(i), steal.get(i)));
            }
            double error = metric.get("scoreError") instanceof Number n ? n.doubleValue() / 1000 : Double.NaN;
            cells.put(key(transport, chunk), Cell.ofRun(iterations, ((Number) metric.get("score")).doubleValue() / 1000, error));
        }
        return cells;
    }

    /** A secondary result's per-iteration values, or NaNs if this run did not record it. */
    @SuppressWarnings("unchecked")
    private static List<Double> secondary(Map<String, Object> secondary, String name, int iterations) {
        Object metric = secondary == null ? null : secondary.get(name);
        if (metric == null) {
            return java.util.Collections.nCopies(iterations, Double.NaN);
        }
        return flatten(((Map<String, Object>) metric).get("rawData"));
    }

    /** JMH's rawData: one list of per-iteration values per fork, flattened in order. */
    @SuppressWarnings("unchecked")
    private static List<Double> flatten(Object rawData) {
        List<Double> values = new ArrayList<>();
        for (Object fork : (List<Object>) rawData) {
            for (Object value : (List<Object>) fork) {
                values.add(value instanceof Number n ? n.doubleValue() : Double.NaN);
            }
        }
        return values;
    }

    /** "# placement before javaToJava chunk=512: median round trip 60.2 ns (close; ..." lines of the JMH log. */
    private static Map<String, String> placements(Path log) throws IOException {
        Pattern line = Pattern.compile("# placement (before|after) (\\w+) chunk=(\\d+): median round trip ([\\d.]+) ns \\((\\w+)");
        Map<String, String> placements = new LinkedHashMap<>();
        for (String text : Files.readAllLines(log)) {
            Matcher m = line.matcher(text);
            if (m.find()) {
                placements.put(m.group(1) + " " + key(m.group(2), Integer.parseInt(m.group(3))), m.group(4));
            }
        }
        return placements;
    }
}
