package dev.lanehost.affinity;

/**
 * The priorities the kernel accepts for a scheduling class ({@code sched_get_priority_min/max}): 1..99 for
 * FIFO and RR on Linux, 0..0 for the others.
 */
public record PriorityRange(int min, int max) {
    /** Linux's documented real-time range (sched(7)), for when the library cannot ask the kernel. */
    static final PriorityRange LINUX_REALTIME = new PriorityRange(1, 99);

    public boolean contains(int priority) {
        return priority >= min && priority <= max;
    }

    @Override
    public String toString() {
        return min + ".." + max;
    }
}
