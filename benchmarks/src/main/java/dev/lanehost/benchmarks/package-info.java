/**
 * Benchmarks of the SPSC byte ring against its peers, all measured in the same run so that every
 * figure can be reported as a ratio against a baseline (see {@code benchmarks/RESULTS.md}).
 *
 * <ul>
 *   <li>{@link dev.lanehost.benchmarks.RingThroughputBenchmark} (JMH): bytes per second through a
 *       1 MiB ring for Java and C producers and consumers, Agrona's {@code OneToOneRingBuffer} and the
 *       LMAX Disruptor, at 512 B, 4 KiB and 64 KiB transfers.</li>
 *   <li>{@link dev.lanehost.benchmarks.RingLatency} (plain main): one-way latency percentiles of
 *       paced 512-byte messages, transports interleaved round by round.</li>
 *   <li>{@link dev.lanehost.benchmarks.PlacementProbe} (plain main and a static method both use):
 *       the core-to-core round trip of the moment, because on the shared VM the two vCPUs are
 *       sometimes close and sometimes far on the host and every cross-thread figure moves with it.</li>
 *   <li>{@link dev.lanehost.benchmarks.CpuShare}: the CPU other processes and the hypervisor took
 *       during a measurement, because the machine is shared.</li>
 *   <li>{@link dev.lanehost.benchmarks.ThroughputSummary} and {@link dev.lanehost.benchmarks.LatencySummary}
 *       (plain mains): turn one or several runs' output into the median tables the ring's figures come from,
 *       stratified by placement and disturbance.</li>
 * </ul>
 *
 * <p>The actor benchmarks against Apache Pekko are in {@link dev.lanehost.benchmarks.actors}.
 *
 * <p>Equal work everywhere: every producer copies from a source buffer and every consumer copies into
 * a destination buffer, so the transports differ only in how they hand bytes over. Every spin loop
 * checks a stop flag (producers) or a stall deadline (consumers), so a dead peer fails the run
 * instead of hanging it.
 */
package dev.lanehost.benchmarks;
