package dev.lanehost.lanes;

/**
 * One HOSTED worker's counters ({@link RuntimeMetrics#workers()}): racy-but-safe reads, never a wait.
 *
 * @param index         the worker's number, as {@link ActorRuntime#spawnPinned(int, String, java.util.function.Supplier)} takes it
 * @param thread        its thread's name
 * @param normalQueued  normal actors queued on it now
 * @param pinnedQueued  pinned actors queued on it now
 * @param turns         turns it has run
 * @param stealAttempts times it tried to take actors from another worker's queue that looked non-empty
 * @param steals        times it took some: the next actor to run, and up to half of the rest, moved to its own queue
 */
public record WorkerStats(int index, String thread, long normalQueued, long pinnedQueued, long turns,
                          long stealAttempts, long steals) {
}
