package dev.lanehost.samples.lv2;

import java.util.Locale;

/**
 * The gaps between an effect's activation, its ticks and its stop: how many came
 * {@link BiquadEffect#LATE_TICK_NANOS} or more after the one before, the longest with when it ended, and those longer
 * than the lead. A gap
 * longer than the lead plays silence for what it is longer by (an underrun), so this says whether, and for how long,
 * the effect was held off when one came. The effect's turns only.
 */
final class TickGaps {
    private long leadNanos;
    private long first;
    private long last;
    private int late;
    private long longest;
    private long longestEnded;
    private int beyondLead;
    private long beyondLeadNanos;

    /** Forgets every gap: an activation at {@code now}, whose lead is {@code leadNanos}. */
    void reset(long leadNanos, long now) {
        this.leadNanos = leadNanos;
        first = now;
        last = now;
        late = 0;
        longest = 0;
        longestEnded = 0;
        beyondLead = 0;
        beyondLeadNanos = 0;
    }

    /** A tick, or the stop, at {@code now}. */
    void tick(long now) {
        long gap = now - last;
        if (gap >= BiquadEffect.LATE_TICK_NANOS) {
            late++;
        }
        if (gap > leadNanos) {
            beyondLead++;
            beyondLeadNanos += gap - leadNanos;
        }
        if (gap > longest) {
            longest = gap;
            longestEnded = now;
        }
        last = now;
    }

    /** True if a gap was 10 ms or more, or longer than the lead (a lead under 10 ms). */
    boolean anyHeldOff() {
        return late > 0 || beyondLead > 0;
    }

    /**
     * One line for the log, which {@code Lv2JalvTest} reads: "N tick(s) of the effect came 10 ms or more after the one
     * before; the longest gap X ms, T s after activation; G gap(s) longer than the lead (L ms), by B ms in all".
     */
    String describe() {
        return String.format(Locale.ROOT, "%d tick(s) of the effect came %d ms or more after the one before; the "
                        + "longest gap %d ms, %.1f s after activation; %d gap(s) longer than the lead (%d ms), by %d ms "
                        + "in all",
                late, BiquadEffect.LATE_TICK_NANOS / 1_000_000, longest / 1_000_000, (longestEnded - first) / 1e9,
                beyondLead, leadNanos / 1_000_000, beyondLeadNanos / 1_000_000);
    }
}
