package dev.lanehost.affinity;

import java.lang.foreign.Arena;

/** Run by {@link AffinityPolicyTest} in a child JVM whose loader cannot find the library. */
public final class LibraryAbsentProgram {
    private LibraryAbsentProgram() {
    }

    public static void main(String[] args) {
        Affinity affinity = Affinity.system();
        Topology topology = affinity.topology();
        System.out.println("available=" + affinity.available());
        System.out.println("BEST_EFFORT: " + AffinityPolicy.BEST_EFFORT.applyToCurrentThread(0, topology, affinity));
        System.out.println("FIXED: " + AffinityPolicy.fixed(0).applyToCurrentThread(0, topology, affinity));
        System.out.println("NONE: " + AffinityPolicy.NONE.applyToCurrentThread(0, topology, affinity));
        // The range check falls back to Linux's documented 1..99 when the kernel cannot be asked.
        System.out.println("PRIORITY: " + PriorityPolicy.realtime(SchedClass.FIFO, 10, 5).applyToCurrentThread(affinity));
        System.out.println(affinity.capabilities());
        try (Arena arena = Arena.ofConfined()) {
            System.out.println("memory: " + affinity.bindToNode(arena.allocate(4096, 4096), 0).status());
        }
        System.out.println("reason: " + affinity.unavailableReason().orElse("none"));
    }
}
