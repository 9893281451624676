package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.ALIGNMENT;
import static dev.lanehost.ring.SpscByteRingDescriptor.CAPACITY_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.DOORBELL_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.HEADER_LENGTH;
import static dev.lanehost.ring.SpscByteRingDescriptor.LAYOUT_VERSION;
import static dev.lanehost.ring.SpscByteRingDescriptor.MAGIC;
import static dev.lanehost.ring.SpscByteRingDescriptor.MAGIC_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.OVERRUN_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.OWNER_CLOSED_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.UNDERRUN_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.VERSION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_WAITER;
import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_WORD_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One ring's header as any thread sees it, through the ring's own segment: formatting it, checking one the other side
 * formatted, and the observers' loads. The layout is {@link SpscByteRingDescriptor}'s, byte for byte
 * {@code lanehost_ring.h}'s. The sides ({@link RingProducer}, {@link RingConsumer}) reach their own words through
 * {@link RingAccess} instead. A failure of an observer's access on a closed ring says "the ring is closed"
 * ({@link #whenClosed}).
 */
final class RingHeader {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** The words of {@code lanehost_ring_status_text(LANEHOST_RING_CORRUPT)}, so both languages say the same. */
    private static final String CORRUPT_POSITIONS = "ring positions are corrupt: the producer is behind the consumer "
            + "or more than the capacity ahead of it (the header was overwritten)";

    final MemorySegment memory;
    final long capacity;
    /** Whether the ring allocated this memory itself (and frees it on close). */
    private final boolean own;

    RingHeader(MemorySegment memory, long capacity, boolean own) {
        this.memory = memory;
        this.capacity = capacity;
        this.own = own;
    }

    // ---------------------------------------------------------------- observers (any thread)

    /** Bytes the consumer could read now, in [0, capacity]. */
    long readable() {
        // Consumer first: the producer only moves ahead of it, so a working ring never shows a negative
        // difference. Positions are unsigned counters, so the difference is compared unsigned: an observer may
        // see more than the capacity (the consumer moved on between the loads) and a corrupt header anything,
        // a producer behind the consumer included (a huge unsigned difference). Both read as the capacity, as
        // lanehost_ring_readable does, so readable() and writable() never leave [0, capacity]; the transfer
        // paths report the corruption.
        long head = lvLong(CONSUMER_POSITION_OFFSET);
        long tail = lvLong(PRODUCER_POSITION_OFFSET);
        long available = tail - head;
        return Long.compareUnsigned(available, capacity) > 0 ? capacity : available;
    }

    long lvProducerPosition() {
        return lvLong(PRODUCER_POSITION_OFFSET);
    }

    long lvConsumerPosition() {
        return lvLong(CONSUMER_POSITION_OFFSET);
    }

    /** Acquire: pairs with the producer's release of the doorbell, which follows its position's. */
    long lvDoorbell() {
        return lvLong(DOORBELL_OFFSET);
    }

    /** Opaque: only the producer writes the counter. */
    long loOverrunCount() {
        return loLong(OVERRUN_COUNT_OFFSET);
    }

    /** Opaque: only the consumer writes the counter. */
    long loUnderrunCount() {
        return loLong(UNDERRUN_COUNT_OFFSET);
    }

    /** Opaque: only the producer writes the counter. */
    long loWakeCount() {
        return loLong(WAKE_COUNT_OFFSET);
    }

    /** Whether a consumer announced that it sleeps (opaque: a look, no order). */
    boolean loHasWaiter() {
        try {
            return ((int) INT.getOpaque(memory, (long) WAKE_WORD_OFFSET) & WAKE_WAITER) != 0;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    void soOwnerClosed() {
        try {
            INT.setRelease(memory, (long) OWNER_CLOSED_OFFSET, 1);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    boolean lvOwnerClosed() {
        try {
            return (int) INT.getAcquire(memory, (long) OWNER_CLOSED_OFFSET) != 0;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** The observers' one way to a position or counter: a closed ring's failure says so. */
    private long lvLong(long offset) {
        try {
            return (long) LONG.getAcquire(memory, offset);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    private long loLong(long offset) {
        try {
            return (long) LONG.getOpaque(memory, offset);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /**
     * What a failure of a call on this ring was: "the ring is closed" once its memory's arena is (the JDK's own words
     * for it, "Already closed", name no ring), else the failure as it was (corrupt positions, a segment's arena).
     */
    IllegalStateException whenClosed(IllegalStateException failure) {
        if (memory.scope().isAlive()) {
            return failure;
        }
        return new IllegalStateException(own ? "the ring is closed"
                : "the ring's memory is no longer there: the arena it was wrapped in is closed", failure);
    }

    IllegalStateException corrupt(long producerPosition, long consumerPosition) {
        return new IllegalStateException(corruptMessage(producerPosition, consumerPosition, capacity));
    }

    private static String corruptMessage(long producerPosition, long consumerPosition, long capacity) {
        return CORRUPT_POSITIONS + ": producer " + Long.toUnsignedString(producerPosition) + ", consumer "
                + Long.toUnsignedString(consumerPosition) + ", capacity " + capacity;
    }

    // ---------------------------------------------------------------- formatting and checking (no side runs yet)

    static void format(MemorySegment memory, long capacity) {
        memory.asSlice(0, HEADER_LENGTH).fill((byte) 0);
        memory.set(ValueLayout.JAVA_INT, VERSION_OFFSET, LAYOUT_VERSION);
        memory.set(ValueLayout.JAVA_LONG, CAPACITY_OFFSET, capacity);
        // The magic goes last, with release: a side that wraps and sees it sees a formatted header.
        INT.setRelease(memory, (long) MAGIC_OFFSET, MAGIC);
    }

    /**
     * Checks a header the other side formatted and returns its capacity.
     *
     * @throws IllegalArgumentException naming the problem, as {@link SpscByteRing#wrap} lists them
     */
    static long checkFormatted(MemorySegment memory) {
        checkPlacement(memory);
        if (memory.byteSize() < HEADER_LENGTH) {
            throw new IllegalArgumentException("ring memory is " + memory.byteSize() + " bytes, shorter than the "
                    + HEADER_LENGTH + "-byte header" + (memory.byteSize() == 0
                    ? " (a segment made from a C pointer has length 0: reinterpret it to the ring's memory length first)" : ""));
        }
        int magic = (int) INT.getAcquire(memory, (long) MAGIC_OFFSET); // pairs with format's release
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format(
                    "not a lanehost ring: magic is 0x%08X, expected 0x%08X (was the memory initialized?)", magic, MAGIC));
        }
        int version = memory.get(ValueLayout.JAVA_INT, VERSION_OFFSET);
        if (version != LAYOUT_VERSION) {
            throw new IllegalArgumentException("ring layout version is " + version + ", this library reads version " + LAYOUT_VERSION);
        }
        long capacity = memory.get(ValueLayout.JAVA_LONG, CAPACITY_OFFSET);
        try {
            SpscByteRingDescriptor.checkCapacity(capacity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the ring header is invalid: " + e.getMessage(), e);
        }
        checkMemory(memory, capacity);
        checkPositions(memory, capacity);
        return capacity;
    }

    /**
     * Refuses positions no working ring can have: the producer behind the consumer or more than the
     * capacity ahead of it, the same check as {@code lanehost_ring_check_positions}.
     *
     * <p>Positions are unsigned 64-bit counters that only grow and wrap to zero after 2^64 bytes (and
     * Java's long turns negative at 2^63), so "ahead" is the difference {@code producer - consumer}
     * compared unsigned: a working ring keeps it in [0, capacity] whatever the raw values, and a producer
     * behind the consumer makes it enormous. Comparing the raw values would call a wrapped ring corrupt.
     *
     * <p>Either side may be running while this reads (an observer, or the other side of a live ring), so
     * the consumer position is read before and after the producer position, all with acquire. A working
     * ring has {@code before <= producer <= after + capacity} (the consumer never passes a producer
     * position it acquired, the producer never passes a consumer position plus the capacity, and both only
     * grow), which in wrap-around arithmetic is {@code producer - before <= (after - before) + capacity};
     * with the consumer at rest that is exactly {@code producer - consumer <= capacity}.
     */
    private static void checkPositions(MemorySegment memory, long capacity) {
        long consumerBefore = (long) LONG.getAcquire(memory, (long) CONSUMER_POSITION_OFFSET);
        long producer = (long) LONG.getAcquire(memory, (long) PRODUCER_POSITION_OFFSET);
        long consumerAfter = (long) LONG.getAcquire(memory, (long) CONSUMER_POSITION_OFFSET);
        long consumedMeanwhile = consumerAfter - consumerBefore;
        if (Long.compareUnsigned(producer - consumerBefore, consumedMeanwhile + capacity) > 0) {
            throw new IllegalArgumentException(corruptMessage(producer, consumerBefore, capacity));
        }
    }

    private static void checkPlacement(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("ring memory must be native (off-heap): a heap segment cannot be shared with C "
                    + "and does not support aligned 64-bit atomic access");
        }
        if (memory.isReadOnly()) {
            throw new IllegalArgumentException("ring memory is read-only");
        }
        if ((memory.address() & (ALIGNMENT - 1)) != 0) {
            throw new IllegalArgumentException(String.format("ring memory at 0x%x is not %d-byte aligned", memory.address(), ALIGNMENT));
        }
    }

    static void checkMemory(MemorySegment memory, long capacity) {
        checkPlacement(memory);
        long needed = HEADER_LENGTH + capacity;
        if (memory.byteSize() < needed) {
            throw new IllegalArgumentException("ring memory is " + memory.byteSize() + " bytes, but a ring of capacity "
                    + capacity + " needs " + needed + " (" + HEADER_LENGTH + " header + capacity)");
        }
    }
}
