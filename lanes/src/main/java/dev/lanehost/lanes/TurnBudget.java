package dev.lanehost.lanes;

import java.time.Duration;
import java.util.Objects;

/**
 * How long one turn may run: past {@code fast} the turn is asked to yield ({@link ActorContext#shouldYield()}
 * turns true, and the actor waits in the slow band behind every ready actor); past {@code slow} the turn earns
 * a strike when it returns, and {@code strikeCeiling} strikes halt the actor with {@link ExitReason#BUDGET};
 * a turn still running {@code slow} after it was asked to yield is disrupted at its next poll site
 * ({@link TurnDisrupted}) and its actor halts with {@link ExitReason#BUDGET}: under HOSTED, once its thread has
 * spent half a {@code slow} on the CPU since the request (a turn the machine held off the CPU is not the actor's
 * fault), and in any case {@code slow × strikeCeiling} after the request. SINGLE_THREAD, which cannot watch a
 * turn, settles it when it returns: a turn past {@code fast + slow} halts its actor only if the actor already had a
 * strike and the turn was on the CPU for half of {@code fast + slow}; otherwise it is a strike. An actor's start turn is not
 * asked to yield: it is disrupted once it has run {@code slow × strikeCeiling}.
 *
 * <p>The defaults ({@link #DEFAULT}): <b>fast 10 ms</b>, shorter than a 60 Hz frame, so one turn asked to yield
 * costs a frame loop at most a frame; <b>slow 100 ms</b>, long enough that a GC pause or a first, interpreted run
 * rarely reaches it, short enough that a user sees the stall it causes; <b>3 strikes</b>, because one slow turn
 * may be the machine's fault and three in a row are the actor's.
 *
 * @param fast          when a turn is asked to yield; positive
 * @param slow          when a turn earns a strike, and how long after the yield request it may be disrupted;
 *                      at least {@code fast}
 * @param strikeCeiling strikes that halt the actor; at least 1
 */
public record TurnBudget(Duration fast, Duration slow, int strikeCeiling) {
    /** The runtime default: 10 ms, 100 ms, 3 strikes (the class comment says why). */
    public static final TurnBudget DEFAULT = new TurnBudget(Duration.ofMillis(10), Duration.ofMillis(100), 3);

    public TurnBudget {
        Objects.requireNonNull(fast, "fast budget");
        Objects.requireNonNull(slow, "slow budget");
        if (fast.isNegative() || fast.isZero()) {
            throw new IllegalArgumentException("the fast budget must be positive; got " + fast);
        }
        if (slow.compareTo(fast) < 0) {
            throw new IllegalArgumentException("the slow budget (" + slow + ") must not be shorter than the fast budget (" + fast + ")");
        }
        if (strikeCeiling < 1) {
            throw new IllegalArgumentException("the strike ceiling must be at least 1; got " + strikeCeiling);
        }
        try {
            slow.multipliedBy(strikeCeiling).plus(fast).toNanos();
        } catch (ArithmeticException tooLong) {
            throw new IllegalArgumentException("the slow budget (" + slow + ") × strike ceiling (" + strikeCeiling
                    + ") is longer than the runtime clock can count", tooLong);
        }
    }
}
