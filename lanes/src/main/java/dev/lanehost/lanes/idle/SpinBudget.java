package dev.lanehost.lanes.idle;

/**
 * How long an idle worker spins before it parks, learned from what its last waits found. After a park that a
 * sender ended within twice the spin it had just done, spinning longer would have caught the work: the budget
 * doubles (up to {@code max}). After a longer park, the spin was wasted: it halves (down to {@code min}). Work
 * found while spinning keeps it. So a worker answering a caller who replies within microseconds keeps spinning
 * through the gap, a worker woken by a 1 kHz tick spins almost nothing before it parks again, and an idle
 * worker, parked until woken, spins not at all. One worker's, never shared.
 */
public final class SpinBudget {
    private final int min;
    private final int max;
    private int rounds;

    public SpinBudget(int min, int max) {
        this.min = min;
        this.max = max;
        this.rounds = Math.max(min, max / 2);
    }

    /** Rounds to spin before parking. */
    public int rounds() {
        return rounds;
    }

    /** The worker spun for {@code spunNanos}, parked, and was woken {@code parkedNanos} later. */
    public void parked(long spunNanos, long parkedNanos) {
        if (parkedNanos <= 2 * spunNanos) {
            rounds = (int) Math.min(max, 2L * Math.max(1, rounds));
        } else {
            rounds = Math.max(min, rounds / 2);
        }
    }
}
