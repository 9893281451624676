package dev.lanehost.ring;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * What the producer's side and the consumer's side of a ring share: the ring's geometry, the way to its memory, the
 * raw-copy guard, the single-thread check, and the frame arithmetic. Each side has one transfer path that all its
 * entries take, whatever they copy from or to ({@code byte[]}, {@link MemorySegment}, direct {@link ByteBuffer}):
 * {@link RingProducer#write} (claim room, copy in, publish) and {@link RingConsumer#read} (claim bytes, copy out,
 * release), mirror images of each other. They are two methods, not one template with a virtual step per side: HotSpot
 * compiles a method once, so one shared path was compiled for both sides at once, with a type check at each step, and
 * cost a 512-byte write-and-read ~12 % of its CPU time (measured in one JVM: 29.4 against 26.3 ns).
 */
abstract sealed class RingSide extends RingAccess permits RingProducer, RingConsumer {
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

    RingSide(RingHeader header, RawCopy raw, ByteBuffer dataView) {
        super(header.memory, raw != null); // the side's way to the memory: raw where it has a guard
        this.header = header;
        this.capacity = header.capacity;
        this.mask = header.capacity - 1;
        this.raw = raw;
        this.dataView = dataView;
    }

    /** A side's start: keeps a close away while the side touches raw memory (a ring on a caller's memory has no guard). */
    final void enter() {
        if (raw != null) {
            raw.enter();
        }
    }

    final void exit() {
        if (raw != null) {
            raw.exit();
        }
    }

    /** One more overrun or underrun: the counter of this side (opaque: observers read it with getOpaque). */
    final void poCount(long counterOffset) {
        try {
            poLong(counterOffset, lpLong(counterOffset) + 1);
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
