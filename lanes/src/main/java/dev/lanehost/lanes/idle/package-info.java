/**
 * What an idle HOSTED worker does, one round at a time: the steps of {@code IdleStrategy}'s rules
 * ({@link dev.lanehost.lanes.idle.IdleStep}) and the adaptive spin budget ({@link dev.lanehost.lanes.idle.SpinBudget}).
 * Not API; the module does not export it. It calls nothing of the runtime: the strategy's public face, the access
 * it leaves, and the workers call it.
 */
package dev.lanehost.lanes.idle;
