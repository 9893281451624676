/**
 * Observation: what the runtime says about itself. Not API; the module does not export it.
 *
 * <p>Owns {@link dev.lanehost.lanes.observe.RuntimeLog}, the runtime's own log lines, written from paths that
 * must not throw, {@link dev.lanehost.lanes.observe.GuardedObserver}, a user's observer behind a guard,
 * {@link dev.lanehost.lanes.observe.RuntimeEvents}, the Flight Recorder events, whose hooks take ids, names and
 * plain values, and {@link dev.lanehost.lanes.observe.HaltCounts} (halts by exit reason). It may call the API's
 * observer types and {@code dev.lanehost.affinity}'s results; the runtime's parts call it.
 */
package dev.lanehost.lanes.observe;
