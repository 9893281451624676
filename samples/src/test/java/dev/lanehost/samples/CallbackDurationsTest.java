package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CallbackDurationsTest {
    /** The bucket jack_host.c puts {@code nanos} in (its duration_bucket), for building histograms here. */
    private static int bucket(long nanos) {
        if (nanos < 64) {
            return (int) nanos;
        }
        int e = 63 - Long.numberOfLeadingZeros(nanos);
        return 64 + 32 * (e - 6) + (int) ((nanos >>> (e - 5)) & 31);
    }

    private static CallbackDurations of(long maxNanos, long... durations) {
        long[] counts = new long[CallbackDurations.BUCKETS];
        for (long d : durations) {
            counts[bucket(d)]++;
        }
        return new CallbackDurations(counts, maxNanos);
    }

    @Test
    void eachBucketEndsWhereTheNextBegins() {
        for (long nanos : new long[] {0, 63, 64, 65, 66, 127, 128, 1_000, 3_999, 20_600_000, (1L << 40) - 1}) {
            int i = bucket(nanos);
            long upper = CallbackDurations.upperNanos(i);
            assertEquals(true, nanos < upper, nanos + " ns lies below its bucket's end " + upper);
            assertEquals(i + 1, bucket(upper), "bucket " + i + " ends where bucket " + (i + 1) + " begins");
        }
    }

    @Test
    void aBucketIsAtMostAThirtySecondOfItsDurations() {
        for (int i = 64; i < CallbackDurations.BUCKETS - 1; i++) {
            long lower = CallbackDurations.upperNanos(i - 1);
            long width = CallbackDurations.upperNanos(i) - lower;
            assertEquals(true, width * 32 <= lower, "bucket " + i + ": " + width + " ns wide from " + lower + " ns");
        }
    }

    @Test
    void percentilesAreTheUpperEndOfTheBucketHoldingTheRank() {
        long[] durations = new long[1000];
        for (int i = 0; i < 1000; i++) {
            durations[i] = 1_000 + i; // 1.000 ... 1.999 us
        }
        CallbackDurations d = of(1_999, durations);
        assertEquals(1000, d.count());
        long p50 = d.percentileNanos(0.5); // the 500th: 1,499 ns
        assertEquals(true, p50 > 1_499 && p50 <= 1_499 + 1_499 / 32, "p50 " + p50);
        assertEquals(1_999, d.percentileNanos(1.0), "never above the maximum");
    }

    @Test
    void oneSlowCallbackShowsInTheTailOnly() {
        long[] durations = new long[1000];
        java.util.Arrays.fill(durations, 5_000);
        durations[999] = 20_000_000;
        CallbackDurations d = of(20_000_000, durations);
        assertEquals(true, d.percentileNanos(0.999) < 5_200, "p99.9 " + d.percentileNanos(0.999));
        assertEquals(20_000_000, d.percentileNanos(1.0));
    }

    @Test
    void nothingTimedGivesZero() {
        assertEquals(0, new CallbackDurations(new long[CallbackDurations.BUCKETS], 0).percentileNanos(0.99));
    }

    @Test
    void refusesAnotherBucketCountOrAQuantileOutsideZeroToOne() {
        assertThrows(IllegalArgumentException.class, () -> new CallbackDurations(new long[10], 0));
        CallbackDurations d = of(5, 5);
        assertThrows(IllegalArgumentException.class, () -> d.percentileNanos(0));
        assertThrows(IllegalArgumentException.class, () -> d.percentileNanos(1.5));
    }
}
