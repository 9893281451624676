package dev.lanehost.nativeabi;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A ring exported to hosts under a name, whose memory lives until the last of its holders lets go: Java
 * (until {@link #close()}) and each host reference ({@code ring_lookup} until {@code ring_release}). So a
 * host's real-time callback can keep using the memory while Java shuts down around it.
 */
public final class HostRing implements AutoCloseable {
    private final String name;
    private final Arena arena;
    private final SpscByteRing ring;
    /** Java's reference plus one per host reference; the memory is freed when it reaches 0. */
    private final AtomicInteger references = new AtomicInteger(1);
    private final AtomicBoolean javaReleased = new AtomicBoolean();

    private HostRing(String name, Arena arena, SpscByteRing ring) {
        this.name = name;
        this.arena = arena;
        this.ring = ring;
    }

    /** Allocates and formats the ring and exports it in {@code exportedIn} under its name. */
    static HostRing export(String name, long capacity, Map<String, HostRing> exportedIn) {
        long length = SpscByteRingDescriptor.memoryLength(capacity); // validates the capacity
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(length, SpscByteRingDescriptor.ALIGNMENT);
            HostRing hostRing = new HostRing(name, arena, SpscByteRing.initialize(memory, capacity));
            // A ring Java closed keeps its name (a lookup answers CLOSED, not "not exported") until a new one takes it.
            HostRing existing = exportedIn.merge(name, hostRing, (old, fresh) -> old.isClosed() ? fresh : old);
            if (existing != hostRing) {
                throw new IllegalArgumentException("a ring named '" + name + "' is already exported");
            }
            return hostRing;
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    /**
     * Java's side of the ring. Do not use it after {@link #close()}: it keeps working only while a host still holds
     * a reference, and throws {@code IllegalStateException} once the last one is released and the memory freed.
     */
    public SpscByteRing ring() {
        return ring;
    }

    /** Host references not yet released. */
    public int hostReferences() {
        int all = references.get();
        return javaReleased.get() ? all : all - 1;
    }

    /** True until the memory has been freed (every holder let go). */
    public boolean isMemoryLive() {
        return arena.scope().isAlive();
    }

    /**
     * Hosts can no longer look the ring up ({@code ring_lookup} answers {@code LANEHOST_CLOSED}), and a host holding a
     * reference sees {@code lanehost_ring_owner_closed} answer 1 (so it knows to release it); the memory is freed once
     * every host reference is released. Idempotent.
     */
    @Override
    public void close() {
        if (javaReleased.compareAndSet(false, true)) {
            ring.markOwnerClosed(); // Java still holds its own reference here: the memory is live
            release();
        }
    }

    /** True once Java has closed it. */
    boolean isClosed() {
        return javaReleased.get();
    }

    /** A new host reference, unless the memory is already gone. */
    boolean retain() {
        while (true) {
            int current = references.get();
            if (current == 0) {
                return false;
            }
            if (references.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void release() {
        if (references.decrementAndGet() == 0) {
            arena.close();
        }
    }

    MemorySegment memory() {
        return ring.memory();
    }

    @Override
    public String toString() {
        return "HostRing[" + name + ", " + ring.capacity() + " bytes, " + hostReferences() + " host references]";
    }
}
