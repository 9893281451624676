package dev.lanehost.ring;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One side of a ring, the producer's or the consumer's, and the one path every transfer of either side takes: claim
 * the bytes the other side's position allows, copy them (in two pieces when they straddle the end of the data), then
 * publish the side's new position with a release store. The sides differ only in those three steps' details
 * ({@link RingProducer}, {@link RingConsumer}); the buffer a transfer copies from or to is a {@code byte[]}, a
 * {@link MemorySegment} or a direct {@link ByteBuffer}, whichever the entry was given, and only the copy looks at it.
 */
abstract sealed class RingSide permits RingProducer, RingConsumer {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(RingSide.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final RingHeader header;
    final long capacity;
    final long mask;
    /** The side's way to the memory: raw when {@link #raw} is there, the segment otherwise. */
    final RingAccess access;
    /**
     * The side's raw-copy guard: non-null only for memory the ring allocated, where the side touches the memory at its
     * raw address and copies long pieces by {@code memcpy} (see {@link RawCopy}).
     */
    final RawCopy raw;
    /**
     * The data region as a ByteBuffer, for copies to and from direct buffers without wrapping them in a
     * segment (which allocates). Only absolute bulk methods are used, which never move its position, so
     * both sides share it. Null above 2 GiB, where a ByteBuffer cannot reach.
     */
    final ByteBuffer dataView;
    /** The side's thread, set by its first transfer when assertions are enabled. */
    @SuppressWarnings("unused")
    private volatile Thread owner;

    RingSide(RingHeader header, RingAccess access, RawCopy raw, ByteBuffer dataView) {
        this.header = header;
        this.capacity = header.capacity;
        this.mask = header.capacity - 1;
        this.access = access;
        this.raw = raw;
        this.dataView = dataView;
    }

    /**
     * The one transfer path: up to {@code length} bytes of {@code buffer} from {@code offset} (a {@code byte[]}, a
     * {@link MemorySegment} or a direct {@link ByteBuffer} when {@link #dataView} is there), checked by the entry.
     *
     * @return the bytes moved
     */
    final long transfer(Object buffer, long offset, long length) {
        assert isOwnerThread() : ownerMessage();
        if (raw != null) {
            raw.enter(); // keeps a close away while the side touches raw memory
        }
        try {
            long position = lpPosition();
            long count = claim(position, length);
            if (count == 0) {
                return 0;
            }
            long index = position & mask;
            long first = Math.min(count, capacity - index);
            copy(buffer, offset, index, first);
            if (count > first) { // straddles the end: the rest is at the start of the data
                copy(buffer, offset + first, 0, count - first);
            }
            soPosition(position, count);
            return count;
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        } finally {
            if (raw != null) {
                raw.exit();
            }
        }
    }

    /** The side's own position: a plain load, only this side writes it. */
    abstract long lpPosition();

    /** How many of {@code length} bytes the other side's position allows after {@code position}; counts a short claim. */
    abstract long claim(long position, long length);

    /** Copies {@code length} bytes between {@code buffer} from {@code offset} and {@code index} of the data. */
    abstract void copy(Object buffer, long offset, long index, long length);

    /** Publishes the side's new position with release: the other side that acquires it sees this side's copy done. */
    abstract void soPosition(long position, long count);

    /** One more overrun or underrun: the counter of this side (opaque: observers read it with getOpaque). */
    final void poCount(long counterOffset) {
        try {
            access.poLong(counterOffset, access.lpLong(counterOffset) + 1);
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        }
    }

    /** The bytes of {@code frames} frames of {@code frameBytes}, checked: a frame the ring could never hold is refused. */
    final int frameSpan(int frames, int frameBytes) {
        if (frames < 0) {
            throw new IllegalArgumentException("frames must not be negative; got " + frames);
        }
        if (frameBytes < 1 || frameBytes > capacity) {
            throw new IllegalArgumentException("a frame must be 1 to " + capacity + " bytes (the ring's capacity), so"
                    + " that one can ever pass whole; got " + frameBytes);
        }
        try {
            return Math.multiplyExact(frames, frameBytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(frames + " frames of " + frameBytes + " bytes do not fit an array", e);
        }
    }

    /** Whether the calling thread is this side's (the first to ask becomes it). */
    final boolean isOwnerThread() {
        Thread current = Thread.currentThread();
        Thread was = (Thread) OWNER.compareAndExchange(this, (Thread) null, current);
        return was == null || was == current;
    }

    final String ownerMessage() {
        String side = this instanceof RingProducer ? "producer" : "consumer";
        return "SpscByteRing has one " + side + ": " + Thread.currentThread() + (side.equals("producer") ? " wrote" : " read")
                + ", but " + owner + " is the " + side;
    }
}
