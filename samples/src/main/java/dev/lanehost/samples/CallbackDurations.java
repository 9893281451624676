package dev.lanehost.samples;

import java.util.Arrays;

/**
 * The JACK host's histogram of process-callback durations ({@code lanehost_jack_client_durations} in
 * {@code jack_host.h}), timed in C on the process thread. Bucket {@code i < 64} holds durations of exactly {@code i}
 * ns; above, each power of two is split into 32 buckets, so a percentile read from it is at most 1/32 (3 %) above
 * the true value. Durations of 2^40 ns or more all land in the last bucket.
 *
 * @param counts   callbacks per bucket ({@link #BUCKETS} of them)
 * @param maxNanos the longest callback, exactly
 */
public record CallbackDurations(long[] counts, long maxNanos) {
    /** Must equal {@code LANEHOST_JACK_DURATION_BUCKETS}. */
    public static final int BUCKETS = 1152;
    private static final int LINEAR = 64;
    private static final int SUB_BUCKETS = 32;
    private static final int FIRST_EXPONENT = 6;

    public CallbackDurations {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("a callback-duration histogram has " + BUCKETS + " buckets, got " + counts.length);
        }
        counts = counts.clone();
    }

    /** A copy of the callbacks per bucket. */
    @Override
    public long[] counts() {
        return counts.clone();
    }

    /** Callbacks timed. */
    public long count() {
        return Arrays.stream(counts).sum();
    }

    /**
     * The duration that a fraction {@code quantile} (0 < q ≤ 1) of the callbacks did not exceed: the upper end of the
     * bucket holding that rank, never above {@link #maxNanos()}. 0 when nothing was timed.
     */
    public long percentileNanos(double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("a quantile is in (0, 1], got " + quantile);
        }
        long total = count();
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(upperNanos(i), maxNanos);
            }
        }
        return maxNanos;
    }

    /** The first duration above bucket {@code i} (exclusive upper end), in ns. */
    static long upperNanos(int i) {
        if (i < LINEAR) {
            return i + 1;
        }
        int exponent = FIRST_EXPONENT + (i - LINEAR) / SUB_BUCKETS;
        int sub = (i - LINEAR) % SUB_BUCKETS;
        return (long) (SUB_BUCKETS + sub + 1) << (exponent - 5);
    }

    /** {@code p50 / p99 / p99.9 / max} in microseconds, for reports. */
    public String summary() {
        return String.format("p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us (%,d callbacks)", percentileNanos(0.5) / 1e3,
                percentileNanos(0.99) / 1e3, percentileNanos(0.999) / 1e3, maxNanos / 1e3, count());
    }
}
