/**
 * A turn: the runner that runs one letter against the actor's behaviour ({@link dev.lanehost.lanes.turn.TurnRunner}),
 * the context a turn sees ({@link dev.lanehost.lanes.turn.TurnContext}), one actor's turns against its budget
 * ({@link dev.lanehost.lanes.turn.TurnClock}, {@link dev.lanehost.lanes.budget.BudgetLimits} in clock nanoseconds,
 * {@link dev.lanehost.lanes.budget.ThreadCpu}) and its idle timeout ({@link dev.lanehost.lanes.turn.IdleReaper}). Not
 * API; the module does not export it. It may call the cell, the mailbox's letters, the runtime context, observe and
 * the API's handles; the cell and the schedulers call it.
 */
package dev.lanehost.lanes.turn;
