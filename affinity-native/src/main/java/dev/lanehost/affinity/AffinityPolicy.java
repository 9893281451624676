package dev.lanehost.affinity;

import java.util.Arrays;

/**
 * How the runtime pins its worker threads. Affinity belongs to runtime configuration and
 * applies to threads, never to individual actors; applying it is a best-effort start-up step whose
 * result the runtime records.
 *
 * <ul>
 *   <li>{@link #NONE}: no OS-level placement is attempted.</li>
 *   <li>{@link #BEST_EFFORT}: compact pinning - worker {@code i} to the {@code i}-th CPU of the process's
 *       allowed set, wrapping when there are more workers than CPUs. Never the {@code i}-th CPU of the
 *       machine: in a container that may be a CPU the process is not allowed.</li>
 *   <li>{@link #fixed(int...)}: worker {@code i} to {@code cpus[i]}. Validated against the topology
 *       ({@link #validate}): a CPU that does not exist or is outside the allowed set is an error naming it.
 *       A worker past the end of the array is not pinned (its result says so): wrapping would silently
 *       put two workers on one CPU the user listed for one.</li>
 * </ul>
 */
public sealed interface AffinityPolicy {
    AffinityPolicy NONE = new None();
    AffinityPolicy BEST_EFFORT = new BestEffort();

    /**
     * Worker {@code i} prefers {@code cpus[i]}.
     *
     * @throws IllegalArgumentException for no CPUs or a negative one (named)
     */
    static AffinityPolicy fixed(int... cpus) {
        return new Fixed(cpus);
    }

    /**
     * The CPUs worker {@code worker} should run on under this policy and topology, or a fallback result
     * saying why there are none. Pure: touches no thread.
     */
    Choice choose(int worker, Topology topology);

    /**
     * Checks the policy against a topology before anything runs.
     *
     * @throws IllegalArgumentException naming the first unknown or disallowed CPU
     */
    default void validate(Topology topology) {
    }

    /**
     * Applies the policy to the calling thread as worker {@code worker}. Never throws for anything the
     * platform or configuration cannot do; the result says what happened and why.
     */
    default AffinityResult applyToCurrentThread(int worker, Topology topology, Affinity affinity) {
        if (worker < 0) {
            throw new IllegalArgumentException("worker index " + worker + " is negative");
        }
        Choice choice = choose(worker, topology);
        return switch (choice) {
            case Choice.Pin pin -> affinity.pinCurrentThread(pin.cpus());
            case Choice.Skip skip when skip.result().outcome() == AffinityResult.Outcome.NOT_REQUESTED ->
                    AffinityResult.notRequested(affinity.currentThreadMask().orElse(CpuSet.empty()));
            case Choice.Skip skip -> skip.result();
        };
    }

    /** What {@link #choose} decided. */
    sealed interface Choice {
        record Pin(CpuSet cpus) implements Choice {
        }

        record Skip(AffinityResult result) implements Choice {
        }
    }

    /** No OS-level CPU placement. */
    record None() implements AffinityPolicy {
        @Override
        public Choice choose(int worker, Topology topology) {
            return new Choice.Skip(AffinityResult.notRequested());
        }

        @Override
        public String toString() {
            return "NONE";
        }
    }

    /** Compact pinning over the allowed set. */
    record BestEffort() implements AffinityPolicy {
        @Override
        public Choice choose(int worker, Topology topology) {
            if (!topology.available()) {
                return new Choice.Skip(AffinityResult.fellBack(CpuSet.empty(), AffinityStatus.UNSUPPORTED, topology.unavailableReason()));
            }
            CpuSet allowed = topology.allowed();
            if (allowed.isEmpty()) {
                return new Choice.Skip(AffinityResult.fellBack(CpuSet.empty(), AffinityStatus.UNSUPPORTED,
                        "this process's allowed CPU set is unknown"));
            }
            return new Choice.Pin(CpuSet.of(allowed.get(worker % allowed.size())));
        }

        @Override
        public String toString() {
            return "BEST_EFFORT";
        }
    }

    /** Worker i on cpus[i]. */
    record Fixed(int[] cpus) implements AffinityPolicy {
        public Fixed {
            if (cpus == null || cpus.length == 0) {
                throw new IllegalArgumentException("FIXED needs at least one CPU");
            }
            cpus = cpus.clone();
            for (int i = 0; i < cpus.length; i++) {
                if (cpus[i] < 0) {
                    throw new IllegalArgumentException("FIXED lists CPU " + cpus[i] + " for worker " + i + "; CPUs are numbered from 0");
                }
            }
        }

        @Override
        public int[] cpus() {
            return cpus.clone();
        }

        @Override
        public void validate(Topology topology) {
            String problem = problem(topology);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }

        @Override
        public Choice choose(int worker, Topology topology) {
            if (worker >= cpus.length) {
                return new Choice.Skip(AffinityResult.fellBack(CpuSet.empty(), AffinityStatus.INVALID_ARGUMENT,
                        "FIXED lists " + cpus.length + " CPUs, none for worker " + worker));
            }
            CpuSet cpu = CpuSet.of(cpus[worker]);
            if (topology.available() && !topology.allowed().contains(cpus[worker])) {
                return new Choice.Skip(AffinityResult.fellBack(cpu, AffinityStatus.CPU_NOT_ALLOWED, cpuProblem(worker, topology)));
            }
            return new Choice.Pin(cpu); // with no topology, the native call itself reports what it cannot do
        }

        private String problem(Topology topology) {
            if (!topology.available()) {
                return null; // nothing to check against; applying falls back with the topology's reason
            }
            for (int worker = 0; worker < cpus.length; worker++) {
                if (!topology.allowed().contains(cpus[worker])) {
                    return cpuProblem(worker, topology);
                }
            }
            return null;
        }

        private String cpuProblem(int worker, Topology topology) {
            int cpu = cpus[worker];
            boolean exists = topology.cpus().stream().anyMatch(c -> c.cpu() == cpu && c.online());
            return exists
                    ? "FIXED gives worker " + worker + " CPU " + cpu + ", which this process may not use (allowed: "
                      + topology.allowed() + "; a cgroup cpuset or taskset limits it)"
                    : "FIXED gives worker " + worker + " CPU " + cpu + ", which this machine does not have (online CPUs: "
                      + topology.onlineCpus() + ")";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Fixed fixed && Arrays.equals(fixed.cpus, cpus);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(cpus);
        }

        @Override
        public String toString() {
            return "FIXED" + Arrays.toString(cpus);
        }
    }
}
