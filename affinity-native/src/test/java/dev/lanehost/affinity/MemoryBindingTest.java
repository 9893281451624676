package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * mbind from Java on whatever nodes this machine has: its first online node binds, a node past its
 * last is refused by name. A kernel without NUMA counts as node 0 alone, as the kernel itself does.
 */
class MemoryBindingTest {
    private final Affinity affinity = Affinity.system();

    @Test
    void pageAlignedMemoryBindsToAnOnlineNodeAndLivesThere() {
        int node = onlineNodes().first();
        long page = affinity.pageSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(page * 4, page);
            MemoryBinding binding = affinity.bindToNode(memory, node);
            Capabilities.Capability numa = affinity.capabilities().numaBinding();
            assertEquals(numa.available(), binding.bound(), binding + " / " + numa); // the probe predicts the real call
            assumeTrue(binding.bound(), "needs mbind, which this kernel or its seccomp filter refuses: " + numa.reason());
            memory.fill((byte) 1); // placed on first write
            assertEquals(node, affinity.nodeOf(memory).orElseThrow());
        }
    }

    @Test
    void misalignedMemoryIsRefusedWithTheFix() {
        long page = affinity.pageSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(page * 2, page).asSlice(8);
            MemoryBinding binding = affinity.bindToNode(memory, 0);
            assertEquals(AffinityStatus.MISALIGNED, binding.status());
            assertTrue(binding.reason().endsWith("allocate with arena.allocate(size, " + page + ")"), binding.reason());
        }
    }

    @Test
    void nodeThatIsNotOnlineIsRefusedByNumber() {
        int offline = onlineNodes().stream().max().orElseThrow() + 1;
        long page = affinity.pageSize();
        try (Arena arena = Arena.ofConfined()) {
            MemoryBinding binding = affinity.bindToNode(arena.allocate(page, page), offline);
            assertEquals(AffinityStatus.UNKNOWN_NODE, binding.status());
            assertTrue(binding.reason().startsWith("NUMA node " + offline + " is not online here"), binding.reason());
        }
    }

    /** The online nodes as the topology reads them; node 0 alone on a kernel without NUMA. */
    private CpuSet onlineNodes() {
        Topology topology = affinity.topology();
        assumeTrue(topology.available(), "needs this machine's topology: " + topology.unavailableReason());
        return topology.numaNodes().isEmpty() ? CpuSet.of(0)
                : CpuSet.of(topology.numaNodes().stream().mapToInt(Topology.NumaNode::id).toArray());
    }

    @Test
    void heapMemoryCannotBeBound() {
        MemoryBinding binding = affinity.bindToNode(MemorySegment.ofArray(new byte[8192]), 0);
        assertEquals(AffinityStatus.INVALID_ARGUMENT, binding.status());
    }
}
