package dev.lanehost.lanes;

/**
 * How an idle HOSTED worker waits for work: it spins, then yields, then parks until a sender wakes it; or,
 * for a worker that owns a core, it spins for ever. Set per runtime with {@link RuntimeBuilder#idleStrategy}.
 *
 * <p>The default ({@link #DEFAULT}: 2,000 spins, no yields, then park) spins about 50 µs: longer than a futex
 * wake-up on a VM (5–10 µs), so a reply to a caller who is still waiting never costs one, and short enough
 * that an idle runtime costs nothing measurable: a parked worker stays parked until work arrives (there is
 * no timed re-check). {@link #busySpin()} never parks: the lowest latency, and a whole core per worker.
 */
public final class IdleStrategy {
    /** Spin about 50 µs, then park until woken. */
    public static final IdleStrategy DEFAULT = new IdleStrategy(2_000, 0, false);

    private final int spins;
    private final int yields;
    private final boolean busySpin;

    private IdleStrategy(int spins, int yields, boolean busySpin) {
        this.spins = spins;
        this.yields = yields;
        this.busySpin = busySpin;
    }

    /**
     * Spin {@code spins} times ({@link Thread#onSpinWait()}, ~25 ns each here), then {@link Thread#yield()}
     * {@code yields} times, then park until a sender wakes the worker.
     *
     * @throws IllegalArgumentException if either count is negative
     */
    public static IdleStrategy backoff(int spins, int yields) {
        if (spins < 0 || yields < 0) {
            throw new IllegalArgumentException("spins and yields must be >= 0; got " + spins + " spins, " + yields + " yields");
        }
        return new IdleStrategy(spins, yields, false);
    }

    /** Never park: each worker spins on its own core while idle. */
    public static IdleStrategy busySpin() {
        return new IdleStrategy(0, 0, true);
    }

    /** Idle rounds spent spinning before yielding. */
    int spins() {
        return spins;
    }

    /** Idle rounds, spins and yields together, before parking; {@link Integer#MAX_VALUE} for busy spin. */
    int roundsBeforePark() {
        return busySpin ? Integer.MAX_VALUE : spins + yields;
    }

    boolean parks() {
        return !busySpin;
    }

    @Override
    public String toString() {
        return busySpin ? "busy spin" : spins + " spins, " + yields + " yields, then park";
    }
}
