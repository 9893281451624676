package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.lane.LaneClose;
import dev.lanehost.lanes.lane.LaneCounters;
import dev.lanehost.lanes.lane.LaneWatch;
import dev.lanehost.lanes.scheduler.RunQueue;

/** {@link ExecutionLane}'s parts, for the runtime. */
public interface LaneAccess {
    LaneCounters counters(ExecutionLane lane);

    RunQueue queue(ExecutionLane lane);

    LaneClose close(ExecutionLane lane);

    LaneWatch watch(ExecutionLane lane);
}
