package dev.lanehost.affinity;

/**
 * What binding a memory range to a NUMA node did. Best effort, like CPU affinity: a range that could
 * not be bound is still ordinary, usable memory.
 *
 * @param node   the node asked for
 * @param status {@link AffinityStatus#OK} when bound
 * @param reason why not, or {@code "bound"}
 */
public record MemoryBinding(int node, AffinityStatus status, String reason) {
    public boolean bound() {
        return status == AffinityStatus.OK;
    }
}
