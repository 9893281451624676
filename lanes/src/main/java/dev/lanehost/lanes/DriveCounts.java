package dev.lanehost.lanes;

/**
 * What an allocation-free drive ({@link ExecutionLane#drive(int, DriveCounts)}) did, written into an object
 * the caller keeps and reuses: a host's real-time callback must not feed the GC. Not thread-safe: one per
 * driving thread.
 */
public final class DriveCounts {
    private int turns;
    private long remaining;

    /** Turns run by the last drive. */
    public int turns() {
        return turns;
    }

    /** Letters still queued on the lane when the last drive returned ({@link ExecutionLane#queuedLetters()}). */
    public long remaining() {
        return remaining;
    }

    void set(int turns, long remaining) {
        this.turns = turns;
        this.remaining = remaining;
    }

    @Override
    public String toString() {
        return "DriveCounts[turns=" + turns + ", remaining=" + remaining + "]";
    }
}
