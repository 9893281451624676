/**
 * HOSTED's threads: the worker pool ({@link dev.lanehost.lanes.scheduler.hosted.WorkerPool}, its placement and
 * stealing rules), its workers ({@link dev.lanehost.lanes.scheduler.hosted.Worker}, the park protocol;
 * {@link dev.lanehost.lanes.scheduler.hosted.WorkerLayout} its fields), who spins, parks and is woken
 * ({@link dev.lanehost.lanes.scheduler.hosted.IdleWorkers}; the idle rounds and spin budget are in {@code idle}), the actor an
 * idle worker keeps ({@link dev.lanehost.lanes.scheduler.hosted.KeptActor}), and the parts that know nothing of actors: a spinning
 * worker's door ({@link dev.lanehost.lanes.scheduler.hosted.HandOff}), a thief's memory of its victims
 * ({@link dev.lanehost.lanes.scheduler.hosted.Sightings}), the threads' priorities, the one warning
 * that a policy cannot apply and the check of the affinity policy and the placement against the machine
 * ({@link dev.lanehost.lanes.scheduler.hosted.PlacementCheck}). Not API; the module does not export it. It may call
 * the cell and its run queue, idle, observe, the queues and {@code dev.lanehost.affinity}; the HOSTED scheduler calls it.
 */
package dev.lanehost.lanes.scheduler.hosted;
