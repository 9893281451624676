/**
 * The actor's cell: {@link dev.lanehost.lanes.cell.ActorCell} (scheduling and halt), its run step
 * ({@link dev.lanehost.lanes.cell.CellRun}), its exit reason ({@link dev.lanehost.lanes.cell.CellState}), its teardown
 * ({@link dev.lanehost.lanes.cell.CellTeardown}), its resources and held arenas, its watchers and supervision; the run
 * queue cells wait in ({@link dev.lanehost.lanes.cell.RunQueue}) and the ones a cell roams among
 * ({@link dev.lanehost.lanes.cell.RoamingQueues}); and the cell's two seams upward: the runtime as a cell sees it
 * ({@link dev.lanehost.lanes.cell.RuntimeContext}) and the runner of its turns ({@link dev.lanehost.lanes.cell.Turns}).
 * Not API; the module does not export it. It may call time, resource, the mailbox, the seams, observe, budget, the
 * queues and the API's handles; the turn, the lane, the schedulers and the runtime call it.
 */
package dev.lanehost.lanes.cell;
