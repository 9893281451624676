/**
 * A lane's state beside its public handle: which thread drives it ({@link dev.lanehost.lanes.lane.LaneBinding})
 * and its stall detection ({@link dev.lanehost.lanes.lane.StallWatch}). Not API; the module does not export it.
 * It may call the JDK only; the lane's handle and its watch call it.
 */
package dev.lanehost.lanes.lane;
