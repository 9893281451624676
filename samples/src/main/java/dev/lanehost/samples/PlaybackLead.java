package dev.lanehost.samples;

/**
 * How far ahead of a playback callback the Java renderer keeps its ring: a lead of N periods, fixed, or sized from
 * what the runtime measures — the pauses the renderer suffered (GC pauses from the JVM's notifications, and
 * scheduling stalls: how much later than its period a render tick woke). The lead must cover the worst pause the
 * renderer is likely to meet plus one tick, or the callback plays silence; every period of lead is a period of
 * latency, so no more than that.
 *
 * <p>Adaptive rule: lead = ceil((the 99.9th percentile of the last {@value #WINDOW} pauses + one tick) / period) + 1
 * (the period the callback is playing), within [{@code minPeriods}, {@code maxPeriods}]; the chosen lead and its
 * reason are observable; a pause longer than the lead covers grows it at once, and a shorter lead is looked for
 * every {@value #RESIZE_EVERY} pauses. Fixed: always N. One thread (the renderer) observes and asks; it allocates
 * nothing.
 */
public final class PlaybackLead {
    /** Pauses remembered: the window the percentile is taken over. */
    static final int WINDOW = 4096;
    /** Pauses between two looks for a shorter lead. */
    static final int RESIZE_EVERY = 256;

    private final long periodNanos;
    private final long tickNanos;
    private final int minPeriods;
    private final int maxPeriods;
    private final boolean adaptive;
    private final long[] pauses = new long[WINDOW];
    private final long[] scratch = new long[WINDOW];
    private int count;
    private int next;
    private int sinceResize;
    private int leadPeriods;
    private long coveredPauseNanos;

    private PlaybackLead(long periodNanos, long tickNanos, int minPeriods, int maxPeriods, boolean adaptive) {
        if (periodNanos <= 0 || tickNanos <= 0) {
            throw new IllegalArgumentException("the period and the render tick must be positive; got " + periodNanos + " ns and " + tickNanos + " ns");
        }
        if (minPeriods < 1 || maxPeriods < minPeriods) {
            throw new IllegalArgumentException("the lead must be at least 1 period and max >= min; got " + minPeriods + ".." + maxPeriods);
        }
        this.periodNanos = periodNanos;
        this.tickNanos = tickNanos;
        this.minPeriods = minPeriods;
        this.maxPeriods = maxPeriods;
        this.adaptive = adaptive;
        this.leadPeriods = minPeriods;
    }

    /** Always {@code periods} ahead. */
    public static PlaybackLead fixed(long periodNanos, long tickNanos, int periods) {
        return new PlaybackLead(periodNanos, tickNanos, periods, periods, false);
    }

    /** Sized from measured pauses, within [{@code minPeriods}, {@code maxPeriods}]. */
    public static PlaybackLead adaptive(long periodNanos, long tickNanos, int minPeriods, int maxPeriods) {
        PlaybackLead lead = new PlaybackLead(periodNanos, tickNanos, minPeriods, maxPeriods, true);
        lead.resize();
        return lead;
    }

    /** A pause the renderer suffered: a GC pause, or a render tick that woke {@code nanos} later than due. */
    public void observePause(long nanos) {
        if (nanos < 0) {
            return;
        }
        pauses[next] = nanos;
        next = (next + 1) % WINDOW;
        if (count < WINDOW) {
            count++;
        }
        // A longer pause than the lead covers resizes at once; a shorter lead is looked for every so often, since a
        // percentile over the window costs a sort.
        if (adaptive && (nanos > coveredPauseNanos || ++sinceResize >= RESIZE_EVERY)) {
            resize();
        }
    }

    /** The lead to keep now, in periods. */
    public int periods() {
        return leadPeriods;
    }

    /** The lead in bytes for a callback that plays {@code periodBytes} a period. */
    public long bytes(long periodBytes) {
        return leadPeriods * periodBytes;
    }

    /** The latency the lead adds: lead × period. */
    public long latencyNanos() {
        return leadPeriods * periodNanos;
    }

    /** The lead in a few words, for a plot's title: "fixed at N periods" or "adaptive, N periods at the end". */
    public String brief() {
        return adaptive ? "adaptive, " + leadPeriods + " periods at the end" : "fixed at " + leadPeriods + " periods";
    }

    /** Why the lead is what it is, for a status line. */
    public String reason() {
        if (!adaptive) {
            return "fixed at " + leadPeriods + " periods";
        }
        return leadPeriods + " periods: covers a " + coveredPauseNanos / 1_000 + " us pause (p99.9 of the last " + count
                + ") plus a " + tickNanos / 1_000 + " us render tick"
                + (leadPeriods == maxPeriods ? ", capped at the maximum" : leadPeriods == minPeriods ? ", at the minimum" : "");
    }

    private void resize() {
        sinceResize = 0;
        long pause = percentile999();
        coveredPauseNanos = pause;
        long needed = ceilDiv(pause + tickNanos, periodNanos) + 1;
        leadPeriods = (int) Math.max(minPeriods, Math.min(maxPeriods, needed));
    }

    private long percentile999() {
        if (count == 0) {
            return 0;
        }
        System.arraycopy(pauses, 0, scratch, 0, count);
        int index = (int) Math.max(0, Math.min(count - 1, (long) Math.ceil(count * 0.999) - 1));
        return select(scratch, count, index);
    }

    /** The {@code k}-th smallest of {@code values[0, n)}, found in place (Hoare's selection): no sort, no allocation. */
    static long select(long[] values, int n, int k) {
        int left = 0;
        int right = n - 1;
        while (left < right) {
            long pivot = values[(left + right) >>> 1];
            int i = left;
            int j = right;
            while (i <= j) {
                while (values[i] < pivot) {
                    i++;
                }
                while (values[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    long swap = values[i];
                    values[i] = values[j];
                    values[j] = swap;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                right = j;
            } else if (k >= i) {
                left = i;
            } else {
                return values[k];
            }
        }
        return values[k];
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
