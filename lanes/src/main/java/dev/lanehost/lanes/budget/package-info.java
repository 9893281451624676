/**
 * A turn's budget below the turn: the budget in the runtime clock's nanoseconds and the flags a turn earns
 * ({@link dev.lanehost.lanes.budget.BudgetLimits}), how the budget watch reads a thread's CPU time
 * ({@link dev.lanehost.lanes.budget.ThreadCpu}), and what the call-gate module may say about a turn's budget: that the
 * rest of a gate's turn — the copy of its handler's result — is the runtime's work, not the actor's
 * ({@link dev.lanehost.lanes.budget.UnchargedWork}, for which the package is exported to that module alone). It calls
 * nothing of the runtime.
 */
package dev.lanehost.lanes.budget;
