/**
 * An actor's signals and parks as the runtime keeps them ({@link dev.lanehost.lanes.resource.ActorSignal},
 * {@link dev.lanehost.lanes.resource.ActorPark}), behind their public handles {@code Signal} and {@code Park}: their
 * callbacks, release hooks, states and owners. (A timer's state is in {@code time}, beside the heap it waits in.) Not
 * API; the module does not export it. It may call the mailbox's letters, the seams and observe; the cell, the turn and
 * the handles call it.
 */
package dev.lanehost.lanes.resource;
