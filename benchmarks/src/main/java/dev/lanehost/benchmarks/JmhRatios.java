package dev.lanehost.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the same-run ratios a target is stated in, from one JMH result file: for each pair
 * {@code numerator/denominator} of benchmark methods, the ratio of JMH's scores (means of the iterations) and
 * the ratio of the medians of the iterations (of the samples, for a sampling benchmark). Usage: {@code JmhRatios result.json emptyDrive/rawUpcall ...}.
 * A benchmark measured with parameters is named {@code method[param=value,...]}.
 */
public final class JmhRatios {
    private JmhRatios() {
    }

    /** One benchmark's score and the median of its measurement iterations, in its own unit. */
    record Score(double mean, double median, String unit) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: JmhRatios result.json numerator/denominator...   (benchmark method names, e.g. emptyDrive/rawUpcall)");
            System.exit(2);
        }
        Map<String, Score> scores = read(Path.of(args[0]));
        for (int i = 1; i < args.length; i++) {
            System.out.println(line(scores, args[i]));
        }
    }

    /** "emptyDrive / rawUpcall: 1.07x (scores 25.10 / 23.46 ns/op), 1.06x (medians)", or what is missing. */
    static String line(Map<String, Score> scores, String pair) {
        int slash = pair.indexOf('/');
        if (slash <= 0 || slash == pair.length() - 1) {
            return pair + ": not numerator/denominator";
        }
        String numerator = pair.substring(0, slash);
        String denominator = pair.substring(slash + 1);
        Score top = scores.get(numerator);
        Score bottom = scores.get(denominator);
        if (top == null || bottom == null) {
            return numerator + " / " + denominator + ": not in this result (it has " + String.join(", ", scores.keySet()) + ")";
        }
        return String.format(Locale.ROOT, "%s / %s: %.2fx (scores %.2f / %.2f %s), %.2fx (medians of iterations)",
                numerator, denominator, top.mean() / bottom.mean(), top.mean(), bottom.mean(), top.unit(),
                top.median() / bottom.median());
    }

    /** Each benchmark of a JMH JSON result by method name (with its parameters, if any). */
    @SuppressWarnings("unchecked")
    static Map<String, Score> read(Path json) throws IOException {
        Map<String, Score> scores = new LinkedHashMap<>();
        for (Object entry : (List<Object>) JmhJson.parse(Files.readString(json))) {
            Map<String, Object> run = (Map<String, Object>) entry;
            String benchmark = (String) run.get("benchmark");
            String name = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            if (run.get("params") instanceof Map<?, ?> params && !params.isEmpty()) {
                List<String> values = new ArrayList<>();
                params.forEach((key, value) -> values.add(key + "=" + value));
                name += "[" + String.join(",", values) + "]";
            }
            Map<String, Object> metric = (Map<String, Object>) run.get("primaryMetric");
            scores.put(name, new Score(((Number) metric.get("score")).doubleValue(), median(metric), (String) metric.get("scoreUnit")));
        }
        return scores;
    }

    /**
     * The median of the measurement iterations; a sampling benchmark (mode "sample") keeps no iterations, only a
     * histogram, so its median is its 50th percentile over all samples.
     */
    @SuppressWarnings("unchecked")
    private static double median(Map<String, Object> metric) {
        if (metric.get("rawData") instanceof List<?> forks) {
            List<Double> iterations = new ArrayList<>();
            for (Object fork : forks) {
                for (Object value : (List<Object>) fork) {
                    iterations.add(value instanceof Number n ? n.doubleValue() : Double.NaN);
                }
            }
            return Stats.median(iterations);
        }
        return metric.get("scorePercentiles") instanceof Map<?, ?> percentiles && percentiles.get("50.0") instanceof Number p50
                ? p50.doubleValue() : Double.NaN;
    }
}
