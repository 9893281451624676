package dev.lanehost.lanes.time;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The SIMULATED profile's clock: nanoseconds that move only when the simulation moves them, never by
 * themselves, so a seeded run reads the same times on every machine.
 *
 * <p>Moved by the draining thread (or {@code advance}); read by any thread.
 */
public final class VirtualClock {
    /** Virtual time starts here rather than at 0, which the runtime uses to mean "not in a turn". */
    public static final long EPOCH = 1_000_000_000L;

    private final AtomicLong nanos = new AtomicLong(EPOCH);

    public long now() {
        return nanos.get();
    }

    /** Moves the clock forward by {@code delta} nanoseconds, to {@link Long#MAX_VALUE} at most. @return the new time */
    public long advance(long delta) {
        return nanos.accumulateAndGet(delta, VirtualClock::saturatedAdd);
    }

    /** {@code a + b} for {@code b >= 0}, or {@link Long#MAX_VALUE} if that overflows: the clock's end. */
    public static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** Moves the clock to {@code instant} if that is later; never backwards. */
    public void moveTo(long instant) {
        nanos.accumulateAndGet(instant, Math::max);
    }
}
