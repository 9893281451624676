/**
 * How turns are scheduled: the profiles' schedulers ({@link dev.lanehost.lanes.scheduler.Scheduler}: HOSTED's
 * {@link dev.lanehost.lanes.scheduler.HostedScheduler}, SINGLE_THREAD's {@link dev.lanehost.lanes.scheduler.DrainScheduler},
 * SIMULATED's {@link dev.lanehost.lanes.scheduler.SimulatedScheduler} with its queues and schedule), the blocking
 * pool, a placement's threads, HOSTED's budget clock ({@link dev.lanehost.lanes.scheduler.BudgetWatch}) and a thread's
 * warm-up; HOSTED's worker pool is in {@code scheduler.hosted}. Not API; the module does not export it. It may call
 * the lane, the turn, the cell and the layers under them; the runtime calls it.
 */
package dev.lanehost.lanes.scheduler;
