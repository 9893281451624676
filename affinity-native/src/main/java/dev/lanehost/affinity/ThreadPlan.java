package dev.lanehost.affinity;

import java.util.OptionalInt;

/**
 * One thread a placement configuration starts, resolved against a topology declaration.
 *
 * @param thread     its name: the entry name, {@code name[i]} for replica i, {@code pool:name} for a pool
 * @param entry      the placement entry (or pool) it comes from
 * @param replica    the replica index, 0 when not replicated
 * @param cpus       the affinity mask to apply; empty means unpinned
 * @param memoryNode the NUMA node its arena should be bound to, when the target names one
 */
public record ThreadPlan(String thread, String entry, int replica, CpuSet cpus, OptionalInt memoryNode) {
    @Override
    public String toString() {
        return thread + " -> " + (cpus.isEmpty() ? "unpinned" : "CPUs " + cpus)
                + (memoryNode.isPresent() ? ", memory on node " + memoryNode.getAsInt() : "");
    }
}
