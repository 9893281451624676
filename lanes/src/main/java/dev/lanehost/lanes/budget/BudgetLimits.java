package dev.lanehost.lanes.budget;

import dev.lanehost.lanes.TurnBudget;

/**
 * A {@link TurnBudget} in the runtime clock's nanoseconds, and the flags a turn has earned after running so
 * long. The flags are bits of a turn's pause word ({@code TurnContext}); {@link #START} marks a start turn,
 * which earns only the disruption, at its own deadline.
 */
public final class BudgetLimits {
    /** Past the fast budget: the turn is asked to yield; the actor waits in the slow band afterwards. */
    public static final long YIELD = 1;
    /** Past the slow budget: a strike, counted when the turn returns. */
    public static final long STRIKE = 2;
    /**
     * A slow budget after the yield request was raised, half of it on the CPU, or slow × ceiling after it whatever
     * the CPU time (a start turn: past slow × ceiling): the next poll site throws. Counted from the request, not
     * from the fast budget, so a watch that looked late never disrupts a turn that had no time to answer.
     */
    public static final long DISRUPT = 4;
    /** Set by the runner: this turn is the actor's start. */
    public static final long START = 8;
    /**
     * Set by the runner: the rest of this turn is the runtime's work for it (a gate copying its result), not the
     * actor's, and earns nothing more; what it earned before stays.
     */
    public static final long UNCHARGED = 16;
    /** The flags a turn earns (not {@link #START} nor {@link #UNCHARGED}). */
    public static final long EARNED = YIELD | STRIKE | DISRUPT;
    /** Bits below the turn generation. */
    public static final int FLAG_BITS = 5;
    public static final long FLAGS = (1L << FLAG_BITS) - 1;

    final TurnBudget budget;
    /** For log lines and disruption messages: "10 ms", "2.5 ms", "300 ms". */
    final String fastText;
    public final String slowText;
    public final String startKillText;
    public final String disruptText;
    public final long fastNanos;
    public final long slowNanos;
    public final long disruptNanos;
    public final long startKillNanos;
    public final int strikeCeiling;

    public BudgetLimits(TurnBudget budget) {
        this.budget = budget;
        this.fastNanos = budget.fast().toNanos();
        this.slowNanos = budget.slow().toNanos();
        this.disruptNanos = fastNanos + slowNanos; // TurnBudget checked it cannot overflow (nor slow × ceiling)
        this.startKillNanos = slowNanos * budget.strikeCeiling();
        this.strikeCeiling = budget.strikeCeiling();
        this.fastText = millis(fastNanos);
        this.slowText = millis(slowNanos);
        this.startKillText = millis(startKillNanos);
        this.disruptText = millis(disruptNanos);
    }

    /** "10 ms", "2.5 ms", "0.123456 ms". */
    public static String millis(long nanos) {
        return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + " ms";
    }

    /**
     * SINGLE_THREAD, once a turn has returned after {@code elapsed} nanoseconds: the flags it earned, as if it had
     * been asked to yield at the fast budget and had not answered.
     */
    public long earnedByTheEnd(long elapsed, boolean start) {
        if (start) {
            return elapsed >= startKillNanos ? DISRUPT : 0;
        }
        long flags = 0;
        if (elapsed >= fastNanos) {
            flags |= YIELD;
        }
        if (elapsed >= slowNanos) {
            flags |= STRIKE;
        }
        if (elapsed >= disruptNanos) {
            flags |= DISRUPT;
        }
        return flags;
    }

    /** A measured time to a tenth of a millisecond: "112.4 ms". */
    public static String tenths(long nanos) {
        return millis(Math.round(nanos / 100_000.0) * 100_000L);
    }

    /** Why a raised {@code DISRUPT} disrupted a turn whose pause word is {@code word}, by these limits. */
    public String why(long word) {
        return (word & START) != 0
                ? "its start ran past " + startKillText + " (slow budget × strike ceiling)"
                : "it ran on for the slow budget (" + slowText + ") after it was asked to yield";
    }
}
