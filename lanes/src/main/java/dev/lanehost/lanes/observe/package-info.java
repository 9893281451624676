/**
 * Observation: what the runtime says about itself. Not API; the module does not export it.
 *
 * <p>Owns {@link dev.lanehost.lanes.observe.RuntimeLog}, the runtime's own log lines, written from paths that
 * must not throw. It calls nothing of the runtime: the other packages call it, never the other way.
 */
package dev.lanehost.lanes.observe;
