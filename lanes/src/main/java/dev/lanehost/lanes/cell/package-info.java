/**
 * The actor's cell: {@link dev.lanehost.lanes.cell.ActorCell} (scheduling and halt), its run step
 * ({@link dev.lanehost.lanes.cell.CellRun}), its exit reason ({@link dev.lanehost.lanes.cell.CellState}), its teardown
 * ({@link dev.lanehost.lanes.cell.CellTeardown}), its resources and held arenas, its watchers and supervision, and
 * the run queues it roams among as it sees them ({@link dev.lanehost.lanes.cell.RoamingQueues}). Not API; the module
 * does not export it. It may call the seams, the mailbox, the turn, the lane's counters and close, the run queue,
 * the runtime context, observe and the queues.
 */
package dev.lanehost.lanes.cell;
