/**
 * A lane's state beside its public handle ({@code ExecutionLane}, which keeps the drive loop): its counts and work
 * flag ({@link dev.lanehost.lanes.mailbox.LaneCounters}), which thread drives it
 * ({@link dev.lanehost.lanes.lane.LaneBinding}), its part in the runtime's close
 * ({@link dev.lanehost.lanes.lane.LaneClose}) and what observers see ({@link dev.lanehost.lanes.lane.LaneWatch},
 * {@link dev.lanehost.lanes.lane.StallWatch}). Not API; the module does not export it. It may call the cell, the run
 * queue, the runtime context, observe and the queues; the lane's handle calls it.
 */
package dev.lanehost.lanes.lane;
