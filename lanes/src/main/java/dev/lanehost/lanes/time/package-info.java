/**
 * Time: the runtime's timer heap ({@link dev.lanehost.lanes.time.TimerQueue}, armed lock-free, waited on by HOSTED's
 * timer thread) and the SIMULATED profile's virtual clock ({@link dev.lanehost.lanes.time.VirtualClock}). Not API;
 * the module does not export it. It may call the queues and the API's {@code Timer}.
 */
package dev.lanehost.lanes.time;
