package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.IdleAccess;
import dev.lanehost.lanes.idle.IdleStep;
import dev.lanehost.lanes.idle.SpinBudget;

/**
 * How an idle HOSTED worker waits for work: it spins, then yields, then parks until a sender wakes it; or,
 * for a worker that owns a core, it spins for ever. Set per runtime with {@link RuntimeBuilder#idleStrategy}.
 *
 * <p>The default ({@link #DEFAULT}, {@link #adaptive}: 16 to 4,000 spins, no yields, then park) learns each
 * worker's spin from its last waits: it grows while work keeps arriving just after the worker parked (a caller
 * answering within microseconds: spinning through the gap saves a futex wake-up, 5–10 µs on a VM), and shrinks
 * while parks are long (a periodic tick: spinning would only burn CPU). A parked worker stays parked until work
 * arrives (there is no timed re-check), so an idle runtime costs no CPU. {@link #backoff} spins a fixed count
 * every time; {@link #busySpin()} never parks: the lowest latency, and a whole core per worker. Unless it busy
 * spins, at most half a pool's workers (at least one) spin at once; the others park until woken.
 */
public final class IdleStrategy {
    static {
        Access.setIdle(new IdleAccess<IdleStrategy>() {
            @Override
            public SpinBudget newSpinBudget(IdleStrategy strategy) {
                return strategy.newSpinBudget();
            }

            @Override
            public IdleStep step(IdleStrategy strategy, int round, int rounds) {
                return strategy.step(round, rounds);
            }

            @Override
            public int roundsBeforePark(IdleStrategy strategy) {
                return strategy.roundsBeforePark();
            }

            @Override
            public boolean parks(IdleStrategy strategy) {
                return strategy.parks();
            }
        });
    }

    /** Spin 16 to 4,000 rounds (~0.4 to ~100 µs), as each worker's last waits suggest, then park until woken. */
    public static final IdleStrategy DEFAULT = new IdleStrategy(4_000, 0, false, 16);

    private final int spins;
    private final int yields;
    private final boolean busySpin;
    /** The least an adaptive strategy spins (its most is {@link #spins}); -1: a fixed count. */
    private final int minSpins;

    private IdleStrategy(int spins, int yields, boolean busySpin, int minSpins) {
        this.spins = spins;
        this.yields = yields;
        this.busySpin = busySpin;
        this.minSpins = minSpins;
    }

    /**
     * Spin between {@code minSpins} and {@code maxSpins} rounds, as each worker's last waits suggest (see the class
     * comment), then park until woken.
     *
     * @throws IllegalArgumentException if {@code minSpins} is negative or above {@code maxSpins}
     */
    public static IdleStrategy adaptive(int minSpins, int maxSpins) {
        if (minSpins < 0 || maxSpins < minSpins) {
            throw new IllegalArgumentException("need 0 <= minSpins <= maxSpins; got " + minSpins + " and " + maxSpins);
        }
        return new IdleStrategy(maxSpins, 0, false, minSpins);
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
        return new IdleStrategy(spins, yields, false, -1);
    }

    /** Never park: each worker spins on its own core while idle. */
    public static IdleStrategy busySpin() {
        return new IdleStrategy(0, 0, true, -1);
    }

    /** A worker's own spin budget if this strategy adapts, else null. */
    SpinBudget newSpinBudget() {
        return minSpins < 0 ? null : new SpinBudget(minSpins, spins);
    }

    /**
     * What an idle worker does in round {@code round} (from 0) of a spell that may last {@code rounds} rounds (its
     * spin budget's, or {@link #roundsBeforePark()}): spin, then yield, then park; busy spin spins in every round,
     * however many.
     */
    IdleStep step(int round, int rounds) {
        if (busySpin) {
            return IdleStep.SPIN;
        }
        if (round >= rounds) {
            return IdleStep.PARK;
        }
        return round < spins ? IdleStep.SPIN : IdleStep.YIELD;
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
        return busySpin ? "busy spin" : minSpins >= 0 ? "adaptive: " + minSpins + " to " + spins + " spins, then park"
                : spins + " spins, " + yields + " yields, then park";
    }
}
