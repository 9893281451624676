/**
 * CPU affinity, topology, NUMA memory and scheduling priority for lanehost: what the machine is, what this
 * process may use, where each runtime thread should run and at what priority.
 *
 * <p>The pieces, bottom up:
 * <ul>
 *   <li>{@link dev.lanehost.affinity.Affinity}: the calling thread and process - pin, read the mask and
 *       the current CPU, the allowed set, {@link dev.lanehost.affinity.Capabilities}, the
 *       {@link dev.lanehost.affinity.Topology}, binding memory to a node. Backed by
 *       {@code liblanehost_affinity} (C, {@code affinity-native/include/lanehost/lanehost_affinity.h}).</li>
 *   <li>{@link dev.lanehost.affinity.CpuSet}: the kernel's list syntax and the placement range forms.</li>
 *   <li>{@link dev.lanehost.affinity.AffinityPolicy}: NONE / BEST_EFFORT / FIXED for worker threads,
 *       each application an {@link dev.lanehost.affinity.AffinityResult} the runtime records.</li>
 *   <li>{@link dev.lanehost.affinity.PriorityPolicy}: none / real-time FIFO or RR with a fallback nice / nice
 *       for the calling thread, each application a {@link dev.lanehost.affinity.PriorityResult} holding the
 *       {@link dev.lanehost.affinity.ThreadPriority} the kernel reports afterwards.</li>
 *   <li>{@link dev.lanehost.affinity.TopologyDeclaration} and {@link dev.lanehost.affinity.PlacementConfig}:
 *       the named topology and placement, validated with every problem at once, resolved to
 *       {@link dev.lanehost.affinity.ThreadPlan}s, counted as a {@link dev.lanehost.affinity.ThreadBudget}.</li>
 * </ul>
 *
 * <p>Invariants:
 * <ol>
 *   <li>Nothing throws because the platform cannot do something. A missing library, a kernel without
 *       NUMA, a seccomp filter, a platform without hard affinity: each degrades to "unsupported" with the
 *       reason, in {@code Capabilities}, an {@code AffinityResult} or an unavailable {@code Topology}.
 *       Class initialization never throws: the library is loaded in a factory that catches the loader's
 *       {@code NativeLibraryException}. Only programming errors (null, negative worker index) and invalid
 *       configuration ({@code validate}, {@code build}, {@code parse}) throw, naming the problem.</li>
 *   <li>The allowed set is the kernel's ({@code sched_getaffinity}), never {@code 0..nproc-1}: inside a
 *       container it is what the cpuset allows, and pinning outside it is refused, not silently trimmed.</li>
 *   <li>A pin is confirmed by reading the thread's mask back; an {@code APPLIED} result means the
 *       kernel reports exactly the requested CPUs. A priority likewise: {@code obtained} is what the kernel
 *       reports for the thread, never the request.</li>
 *   <li>Every C status number, and the C topology record's layout, equal their Java mirror
 *       ({@link dev.lanehost.affinity.AffinityStatus}, {@code internal.CpuRecordLayout}); a test compares them.</li>
 * </ol>
 *
 * <p>Applying a policy at thread start, as the runtime does:
 * <ol>
 *   <li>Once, before starting threads: {@code policy.validate(affinity.topology())} - a FIXED CPU that is
 *       unknown or disallowed is a configuration error, reported before anything runs.</li>
 *   <li>On each new worker thread {@code i}: {@code policy.applyToCurrentThread(i, topology, affinity)}.</li>
 *   <li>Record the result (applied or fell back, and why) in the runtime's metrics; then start the loop.</li>
 * </ol>
 */
package dev.lanehost.affinity;
