/**
 * An execution lane: {@link dev.lanehost.lanes.lane.Lane} (the lane its public handle {@code ExecutionLane} stands for,
 * and its drive loop), which thread drives it ({@link dev.lanehost.lanes.lane.LaneBinding}), its part in the runtime's
 * close ({@link dev.lanehost.lanes.lane.LaneClose}, which reaches the runtime's actors through
 * {@link dev.lanehost.lanes.lane.LaneClose.Actors}), what observers see ({@link dev.lanehost.lanes.lane.LaneWatch},
 * {@link dev.lanehost.lanes.lane.StallWatch}) and the runtime's lanes by name
 * ({@link dev.lanehost.lanes.lane.LaneRegistry}). Not API; the module does not export it. It may call the cell, the
 * mailbox's lane counts, observe and the queues; the schedulers, the runtime and the lane's handle call it.
 */
package dev.lanehost.lanes.lane;
