package dev.lanehost.lanes;

/** Temporary: each thread's own timestamps of one blocking call's steps; carried across threads in the call. */
public final class Trace {
    public static volatile boolean on;
    public static final int FOUND = 0, HOW = 1, CELL_RUN = 2, IDLE_MARKED = 3, DOOR_OPEN = 4;
    // caller's: 8 start 9 offered 10 seen; copied from the call: 11 found 12 how 13 cellRun 14 turn 15 published 16 prevIdle 17 prevDoor
    private static final ThreadLocal<long[]> STAMPS = ThreadLocal.withInitial(() -> new long[32]);
    public static long[] mine() {
        return STAMPS.get();
    }
    private Trace() { }
}
