package dev.lanehost.lanes;

/**
 * Live resources across the runtime; every count returns to zero once every actor has halted and been
 * torn down, which is how tests prove teardown leaks nothing.
 *
 * @param actors  actors spawned and not yet torn down
 * @param signals signals attached (not yet detached, cancelled or released)
 * @param timers  timers armed (not yet fired or cancelled)
 * @param parks   parks not yet ended (pending, or delivered and not yet consumed)
 * @param arenas  actor arenas open
 */
public record ResourceCounts(long actors, long signals, long timers, long parks, long arenas) {
    public static final ResourceCounts NONE = new ResourceCounts(0, 0, 0, 0, 0);
}
