/**
 * Observation: what the runtime says about itself. Not API; the module does not export it.
 *
 * <p>Owns {@link dev.lanehost.lanes.observe.RuntimeLog}, the runtime's own log lines, written from paths that
 * must not throw, {@link dev.lanehost.lanes.observe.GuardedObserver}, a user's observer behind a guard, and
 * {@link dev.lanehost.lanes.observe.RuntimeEvents}, the Flight Recorder events, whose hooks take ids, names and
 * plain values, and {@link dev.lanehost.lanes.observe.LiveCounters}, the live signals, timers, parks and arenas. It may call the API's observer types ({@code RuntimeObserver}, {@code ActorRef}, {@code HaltStep},
 * {@code Placement}) and {@code dev.lanehost.affinity}'s results, nothing of the runtime's parts: they call it, never
 * the other way.
 */
package dev.lanehost.lanes.observe;
