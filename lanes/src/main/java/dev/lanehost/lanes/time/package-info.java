/**
 * Time: an actor's timer as the runtime keeps it ({@link dev.lanehost.lanes.time.ActorTimer}, behind its public handle
 * {@code Timer}), the runtime's timer heap ({@link dev.lanehost.lanes.time.TimerQueue}, armed lock-free, waited on by
 * HOSTED's timer thread) and the SIMULATED profile's virtual clock ({@link dev.lanehost.lanes.time.VirtualClock}). Not
 * API; the module does not export it. It may call the mailbox's letters, the seams and the queues; the cell, the turn,
 * the schedulers and {@code Timer} call it.
 */
package dev.lanehost.lanes.time;
