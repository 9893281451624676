/**
 * Actor benchmarks against Apache Pekko classic actors: every scenario runs lanehost's HOSTED profile, Pekko's
 * default dispatcher and Pekko tuned for two cores ({@link dev.lanehost.benchmarks.actors.Contender}) in one
 * JMH run, so each lanehost figure is a ratio against Pekko measured beside it.
 *
 * <ul>
 *   <li>{@link dev.lanehost.benchmarks.actors.PingPongBenchmark}: 64 pairs bouncing one ball each, round trips/s;</li>
 *   <li>{@link dev.lanehost.benchmarks.actors.FanOutFanInBenchmark}: 1 → 1000 → 1, messages/s;</li>
 *   <li>{@link dev.lanehost.benchmarks.actors.SpawnStormBenchmark}: a million actors spawned, run once, stopped,
 *       actors/s, and lanehost's resources back to zero afterwards;</li>
 *   <li>{@link dev.lanehost.benchmarks.actors.UnbalancedLoadBenchmark}: a few heavy actors among many light ones,
 *       completion time: where one worker leaves a core idle;</li>
 *   <li>{@link dev.lanehost.benchmarks.actors.RoundTripBenchmark}: one request/response, sampled for p50/p99;</li>
 *   <li>{@link dev.lanehost.benchmarks.actors.IdleCpu} (plain main): the CPU an idle runtime burns.</li>
 * </ul>
 *
 * <p>Each scenario does the same work on both runtimes: the same messages, the same actors, the same batch
 * end (a latch the last actor counts down, waited on with a deadline, never a sleep). The scenario code is
 * written twice, once per API, side by side in the benchmark class ({@code OnLanehost}, {@code OnPekko}).
 */
package dev.lanehost.benchmarks.actors;
