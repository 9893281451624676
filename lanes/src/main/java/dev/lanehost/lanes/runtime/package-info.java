/**
 * The runtime's internals behind {@code ActorRuntime}: the runtime context cells and lanes see
 * ({@link dev.lanehost.lanes.runtime.LiveRuntime}, which makes each cell's turns), the registry of actors, spawning
 * ({@link dev.lanehost.lanes.runtime.Spawning}) and the close ({@link dev.lanehost.lanes.runtime.RuntimeClose}). Not
 * API; the module does not export it. It may call the scheduler, the turn, the lane, the cell and the layers under
 * them; {@code ActorRuntime} calls it.
 */
package dev.lanehost.lanes.runtime;
