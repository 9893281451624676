package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** mbind from Java on this one-node machine: node 0 binds, anything else is refused by name. */
class MemoryBindingTest {
    private final Affinity affinity = Affinity.system();

    @Test
    void pageAlignedMemoryBindsToNodeZeroAndLivesThere() {
        long page = affinity.pageSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(page * 4, page);
            MemoryBinding binding = affinity.bindToNode(memory, 0);
            Capabilities.Capability numa = affinity.capabilities().numaBinding();
            assertEquals(numa.available(), binding.bound(), binding + " / " + numa);
            if (binding.bound()) {
                memory.fill((byte) 1); // placed on first write
                assertEquals(0, affinity.nodeOf(memory).orElseThrow());
            }
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
        long page = affinity.pageSize();
        try (Arena arena = Arena.ofConfined()) {
            MemoryBinding binding = affinity.bindToNode(arena.allocate(page, page), 7);
            assertEquals(AffinityStatus.UNKNOWN_NODE, binding.status());
            assertTrue(binding.reason().startsWith("NUMA node 7 is not online here"), binding.reason());
        }
    }

    @Test
    void heapMemoryCannotBeBound() {
        MemoryBinding binding = affinity.bindToNode(MemorySegment.ofArray(new byte[8192]), 0);
        assertEquals(AffinityStatus.INVALID_ARGUMENT, binding.status());
    }
}
