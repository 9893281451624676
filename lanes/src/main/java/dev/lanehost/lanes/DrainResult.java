package dev.lanehost.lanes;

/**
 * What one {@link ActorRuntime#drain()} did.
 *
 * @param turns       turns run
 * @param timersFired due timers dispatched
 * @param remaining   actors still runnable on the normal queue afterwards
 */
public record DrainResult(int turns, int timersFired, long remaining) {
}
