/**
 * HOSTED's threads: the parts of its worker pool that know nothing of actors. Not API; the module does not
 * export it.
 *
 * <p>Owns a spinning worker's door ({@link dev.lanehost.lanes.hosted.HandOff}), a thief's memory of its victims
 * ({@link dev.lanehost.lanes.hosted.Sightings}), how long an idle worker spins ({@link dev.lanehost.lanes.hosted.SpinBudget}),
 * the threads' priority policy ({@link dev.lanehost.lanes.hosted.ThreadPriorities}) and the one warning that a
 * policy cannot apply ({@link dev.lanehost.lanes.hosted.UnappliedPolicies}), and the check of the affinity policy and
 * the placement against the machine as the runtime is built ({@link dev.lanehost.lanes.hosted.PlacementCheck}). It may call
 * {@code dev.lanehost.lanes.observe} and {@code dev.lanehost.affinity}, nothing above: the pool and its workers
 * call it.
 */
package dev.lanehost.lanes.hosted;
