package dev.lanehost.benchmarks;

import java.util.Arrays;
import java.util.List;

/** Order statistics of the benchmarks' summaries: quantiles interpolated between the two nearest values. */
public final class Stats {
    private Stats() {
    }

    /** The {@code q} quantile (0 to 1) of {@code values}, interpolated; NaN when there are none. */
    static double quantile(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double index = q * (sorted.length - 1);
        int low = (int) Math.floor(index);
        int high = (int) Math.ceil(index);
        return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
    }

    static double quantile(List<Double> values, double q) {
        return quantile(values.stream().mapToDouble(Double::doubleValue).toArray(), q);
    }

    /** The median: the middle value, or the mean of the two middle ones. */
    static double median(double[] values) {
        return quantile(values, 0.5);
    }

    public static double median(List<Double> values) {
        return quantile(values, 0.5);
    }
}
