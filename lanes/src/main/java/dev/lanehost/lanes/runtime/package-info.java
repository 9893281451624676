/**
 * The runtime's internals behind {@code ActorRuntime}: the context cells and lanes see
 * ({@link dev.lanehost.lanes.cell.RuntimeContext}, implemented by {@link dev.lanehost.lanes.runtime.LiveRuntime}),
 * the registries of actors and lanes, spawning ({@link dev.lanehost.lanes.runtime.Spawning}) and the close
 * ({@link dev.lanehost.lanes.runtime.RuntimeClose}). Not API; the module does not export it. It may call the
 * scheduler, the cell, the lane and the layers under them; {@code ActorRuntime} calls it.
 */
package dev.lanehost.lanes.runtime;
