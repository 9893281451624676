package dev.lanehost.lanes.access;

/**
 * {@code ExecutionLane}'s parts, for the runtime.
 *
 * @param <L> the lane, {@code ExecutionLane}
 * @param <C> its counts and work flag, a {@code LaneCounters}
 * @param <Q> its run queue, a {@code RunQueue}
 * @param <X> its part in the runtime's close, a {@code LaneClose}
 * @param <W> what observers see of it, a {@code LaneWatch}
 */
public interface LaneAccess<L, C, Q, X, W> {
    C counters(L lane);

    Q queue(L lane);

    X close(L lane);

    W watch(L lane);
}
