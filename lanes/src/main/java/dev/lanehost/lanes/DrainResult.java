package dev.lanehost.lanes;

/**
 * What one {@link ActorRuntime#drain()} did.
 *
 * @param turns       turns run
 * @param timersFired due timers dispatched
 * @param remaining   actors still runnable afterwards on the queues the drain serves: the normal queue, and
 *                    in SIMULATED the lanes it drives
 */
public record DrainResult(int turns, int timersFired, long remaining) {
}
