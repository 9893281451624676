/**
 * Time: the SIMULATED profile's virtual clock ({@link dev.lanehost.lanes.time.VirtualClock}). Not API; the
 * module does not export it. It may call the JDK only.
 */
package dev.lanehost.lanes.time;
