/**
 * Turns and their budgets: what a turn is measured against. Not API; the module does not export it.
 *
 * <p>Owns {@link dev.lanehost.lanes.turn.BudgetLimits} (a turn budget in clock nanoseconds, and the flag bits of a
 * turn's pause word) and {@link dev.lanehost.lanes.turn.ThreadCpu} (a thread's CPU time, read to tell a long turn
 * from one whose thread was held off the CPU). It may call the API's {@code TurnBudget} and the JDK, nothing
 * else of the runtime: cells, turns, schedulers and the budget watch call it.
 */
package dev.lanehost.lanes.turn;
