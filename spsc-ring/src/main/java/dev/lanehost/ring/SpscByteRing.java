package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.ALIGNMENT;
import static dev.lanehost.ring.SpscByteRingDescriptor.HEADER_LENGTH;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;

/**
 * A wait-free single-producer/single-consumer byte ring over off-heap memory whose layout
 * ({@link SpscByteRingDescriptor}) is shared with C ({@code lanehost_ring.h}), so either side may be a
 * Java thread or a native thread that never enters the JVM.
 *
 * <p>It is a byte stream, not a message queue: {@code write} copies in as many bytes as fit and
 * {@code read} copies out as many as are there, and both return the count. A write that could not
 * place every byte counts one overrun; a read that found fewer bytes than asked for counts one
 * underrun. Each write that publishes bytes rings the doorbell, which a non-real-time observer can
 * poll with one load.
 *
 * <p>Threads: exactly one producer thread may call the {@code write} methods and exactly one
 * consumer thread the {@code read} methods and {@link #awaitReadable} for the life of the ring (either
 * may be the C side instead). With assertions enabled ({@code -ea}) a second producer or consumer thread
 * trips an {@link AssertionError}. The observers ({@link #readable()}, counters) may be called from any
 * thread. After {@link #close()} every call that needs the memory throws {@code IllegalStateException("the ring is
 * closed")}; {@link #capacity()} and {@link #toString()} still answer.
 *
 * <p>Ordering: acquire/release only. The write and read paths allocate nothing. Every write takes one path (claim,
 * copy in, publish) and every read its mirror (claim, copy out, release), whatever they copy from or to.
 *
 * <p>Waiting (Linux): instead of polling, the consumer may sleep until bytes arrive
 * ({@link #awaitReadable}), and whichever side produces, Java or C, wakes it, provided it runs in this
 * process. The protocol, in numbered steps the same in {@code lanehost_ring.h}, and why it loses no wake-up, are in
 * the package's comment. membarrier's private command reaches this process's threads only: a consumer whose producer
 * is in another process (ring memory shared between processes) must poll.
 */
public final class SpscByteRing implements AutoCloseable {
    /**
     * The longest single sleep of {@link #awaitReadable}: a Java interrupt cannot reach a thread asleep in
     * the kernel, so a long wait sleeps in slices and checks between them. 50 ms: an interrupted consumer
     * notices within a blink, and a consumer that waits all day wakes only 20 times a second to look.
     */
    public static final long INTERRUPT_CHECK_NANOS = 50_000_000L;

    private final RingHeader header;
    private final long capacity;
    /** Non-null when this ring allocated its own memory and must free it on close. */
    private final Arena ownArena;
    private final RingProducer producer;
    private final RingConsumer consumer;

    private SpscByteRing(MemorySegment memory, long capacity, Arena ownArena) {
        this.header = new RingHeader(memory, capacity, ownArena != null);
        this.capacity = capacity;
        this.ownArena = ownArena;
        ByteBuffer dataView = capacity <= Integer.MAX_VALUE ? memory.asSlice(HEADER_LENGTH, capacity).asByteBuffer() : null;
        // Raw access, a guard for each side: only for memory this ring allocated (see RawCopy).
        RawCopy rawWrite = ownArena != null ? RawCopy.forOwnMemory(memory.asSlice(HEADER_LENGTH)) : null;
        RawCopy rawRead = rawWrite != null ? RawCopy.forOwnMemory(memory.asSlice(HEADER_LENGTH)) : null;
        WakeWord wakeWord = new WakeWord(memory);
        this.producer = new RingProducer(header, rawWrite, dataView, wakeWord);
        this.consumer = new RingConsumer(header, rawRead, dataView, wakeWord);
    }

    /**
     * Allocates and formats an empty ring in an arena of its own, freed by {@link #close()}.
     *
     * @throws IllegalArgumentException if capacity is not a power of two from {@link SpscByteRingDescriptor#MIN_CAPACITY}
     *                                  (64) to {@link SpscByteRingDescriptor#MAX_CAPACITY} (2^62)
     */
    public static SpscByteRing allocate(long capacity) {
        long length = SpscByteRingDescriptor.memoryLength(capacity);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(length, ALIGNMENT);
            RingHeader.format(memory, capacity);
            return new SpscByteRing(memory, capacity, arena);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Formats memory the caller owns (from Java or C) as an empty ring. Nobody may use the memory as a
     * ring while this runs. The caller keeps ownership: {@link #close()} does not free it.
     *
     * @throws IllegalArgumentException if the capacity is invalid, or the memory is on-heap, read-only,
     *                                  not 128-byte aligned, or shorter than the header plus the capacity
     */
    public static SpscByteRing initialize(MemorySegment memory, long capacity) {
        Objects.requireNonNull(memory, "memory");
        SpscByteRingDescriptor.checkCapacity(capacity);
        RingHeader.checkMemory(memory, capacity);
        RingHeader.format(memory, capacity);
        return new SpscByteRing(memory, capacity, null);
    }

    /**
     * Validates a ring that the other side (C or Java) formatted. A segment that C handed over as a
     * bare address has length zero: {@code reinterpret} it to
     * {@link SpscByteRingDescriptor#memoryLength(long)} first.
     *
     * @throws IllegalArgumentException naming the problem: on-heap, read-only or not 128-byte aligned memory, a
     *                                  wrong magic or layout version, an invalid capacity, memory shorter
     *                                  than the capacity the header claims, or positions no working ring can
     *                                  have (the producer behind the consumer or more than the capacity ahead)
     */
    public static SpscByteRing wrap(MemorySegment memory) {
        Objects.requireNonNull(memory, "memory");
        return new SpscByteRing(memory, RingHeader.checkFormatted(memory), null);
    }

    // ---------------------------------------------------------------- producer

    /**
     * Copies up to {@code length} bytes of {@code src} from {@code offset} into the ring.
     *
     * @return the number of bytes copied: {@code length} if they all fit, fewer (counting an overrun) if not
     * @throws IndexOutOfBoundsException if offset and length do not lie within src
     */
    public int write(byte[] src, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, src.length);
        return (int) producer.write(src, offset, length);
    }

    /**
     * Copies up to {@code length} bytes of {@code src} from {@code offset} into the ring.
     *
     * @return the number of bytes copied; fewer than {@code length} counts an overrun
     * @throws IndexOutOfBoundsException if offset and length do not lie within src
     */
    public long write(MemorySegment src, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        return producer.write(src, offset, length);
    }

    /**
     * Copies up to {@code src.remaining()} bytes from the buffer's position into the ring and advances
     * the position by the number copied.
     *
     * @return the number of bytes copied; fewer than {@code remaining()} counts an overrun
     */
    public int write(ByteBuffer src) {
        int position = src.position();
        int count;
        if (src.hasArray()) {
            count = write(src.array(), src.arrayOffset() + position, src.remaining());
        } else if (producer.dataView == null) {
            count = (int) write(MemorySegment.ofBuffer(src), 0, src.remaining());
        } else {
            count = (int) producer.write(src, position, src.remaining());
        }
        src.position(position + count);
        return count;
    }

    /**
     * Copies the whole frames of {@code src} that fit, up to {@code frames}, never a part of one, as
     * {@code lanehost_ring_write_frames} does in C: the frames that do not fit are dropped, and a write that dropped
     * any counts one overrun. So the stream stays aligned when the consumer falls behind, whatever the frame size
     * (a {@link #write} of what fits ends mid-frame unless the frame size divides the capacity).
     *
     * @param frameBytes the size of one frame, the same on every call and the consumer's too
     * @return the frames written
     * @throws IllegalArgumentException  if frames is negative, or frameBytes is not in [1, capacity]
     * @throws IndexOutOfBoundsException if {@code frames * frameBytes} bytes from offset do not lie within src
     * @throws IllegalStateException     if the ring's positions are corrupt (as {@link #write} reports them)
     */
    public int writeFrames(byte[] src, int offset, int frames, int frameBytes) {
        Objects.checkFromIndexSize(offset, producer.frameSpan(frames, frameBytes), src.length);
        return producer.writeFrames(src, offset, frames, frameBytes);
    }

    // ---------------------------------------------------------------- consumer

    /**
     * Copies up to {@code length} bytes out of the ring into {@code dst} from {@code offset}.
     *
     * @return the number of bytes copied: fewer than {@code length} (counting an underrun) if the ring held fewer
     * @throws IndexOutOfBoundsException if offset and length do not lie within dst
     */
    public int read(byte[] dst, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, dst.length);
        return (int) consumer.read(dst, offset, length);
    }

    /**
     * Copies up to {@code length} bytes out of the ring into {@code dst} from {@code offset}.
     *
     * @return the number of bytes copied; fewer than {@code length} counts an underrun
     * @throws IndexOutOfBoundsException if offset and length do not lie within dst
     * @throws IllegalArgumentException  if dst is read-only
     */
    public long read(MemorySegment dst, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, dst.byteSize());
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only segment");
        }
        return consumer.read(dst, offset, length);
    }

    /**
     * Copies up to {@code dst.remaining()} bytes out of the ring to the buffer's position and advances
     * the position by the number copied.
     *
     * @return the number of bytes copied; fewer than {@code remaining()} counts an underrun
     * @throws IllegalArgumentException if dst is read-only
     */
    public int read(ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only ByteBuffer");
        }
        int position = dst.position();
        int count;
        if (dst.hasArray()) {
            count = read(dst.array(), dst.arrayOffset() + position, dst.remaining());
        } else if (consumer.dataView == null) {
            count = (int) read(MemorySegment.ofBuffer(dst), 0, dst.remaining());
        } else {
            count = (int) consumer.read(dst, position, dst.remaining());
        }
        dst.position(position + count);
        return count;
    }

    /**
     * Consumer: waits until at least {@code minBytes} are readable or the timeout passes, sleeping in the
     * kernel rather than spinning; any producer of this process, Java or C, wakes it with its next write (steps 1 to 5 of
     * the protocol in the package's comment). Writes that publish fewer than {@code minBytes} wake it too, and it
     * sleeps again until the count is reached. Linux only. Do not call it where blocking is not allowed: a
     * virtual thread that waits here holds its carrier.
     *
     * @param timeout {@link Duration#ZERO} checks once and never sleeps
     * @return true when at least {@code minBytes} are readable, false once the timeout has passed (even if bytes
     *         arrived as it passed: the next read finds them)
     * @throws InterruptedException          if the thread is interrupted before or while it waits (noticed
     *                                       within {@link #INTERRUPT_CHECK_NANOS}: a Java interrupt cannot
     *                                       reach a thread asleep in the kernel)
     * @throws IllegalArgumentException      if {@code minBytes} is not in [1, capacity] or the timeout is negative
     * @throws IllegalStateException         if the ring is closed, before the call or while it waits ("the ring is
     *                                       closed"; a waiter notices within {@link #INTERRUPT_CHECK_NANOS})
     * @throws UnsupportedOperationException on a platform without Linux futexes or without membarrier(2)
     */
    public boolean awaitReadable(long minBytes, Duration timeout) throws InterruptedException {
        if (minBytes < 1 || minBytes > capacity) {
            throw new IllegalArgumentException("minBytes must be in [1, capacity " + capacity + "], got " + minBytes);
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        assert consumer.isOwnerThread() : consumer.ownerMessage();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        try {
            return consumer.awaitReadable(minBytes, RingConsumer.saturatedNanos(timeout));
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        }
    }

    /**
     * Fills {@code frames * frameBytes} bytes of {@code dst} from {@code offset}: the whole frames the ring holds, up
     * to {@code frames}, then {@code fill} (0 for signed PCM and float) for the rest, as {@code lanehost_ring_read_frames}
     * does in C. It never takes a part of a frame; a fill counts one underrun.
     *
     * @param frameBytes the size of one frame, the producer's
     * @return the frames that came from the ring
     * @throws IllegalArgumentException  if frames is negative, or frameBytes is not in [1, capacity]
     * @throws IndexOutOfBoundsException if {@code frames * frameBytes} bytes from offset do not lie within dst
     */
    public int readFrames(byte[] dst, int offset, int frames, int frameBytes, byte fill) {
        return consumer.readFrames(dst, offset, frames, frameBytes, fill);
    }

    // ---------------------------------------------------------------- observers (any thread)

    /** Bytes the consumer could read now, in [0, capacity]. */
    public long readable() {
        return header.readable();
    }

    /** Bytes the producer could write now, in [0, capacity]. */
    public long writable() {
        return capacity - readable();
    }

    public long capacity() {
        return capacity;
    }

    /** Total bytes ever written. */
    public long producerPosition() {
        return header.lvProducerPosition();
    }

    /** Total bytes ever read. */
    public long consumerPosition() {
        return header.lvConsumerPosition();
    }

    /** Writes that published at least one byte, by either language. */
    public long doorbell() {
        return header.lvDoorbell();
    }

    /** Wake system calls the producer made because a consumer had announced that it sleeps. */
    public long wakeCount() {
        return header.loWakeCount();
    }

    /** Whether a consumer has announced that it is going to sleep and no write has woken it since. */
    public boolean hasWaiter() {
        return header.loHasWaiter();
    }

    /** Writes that could not place every byte offered. */
    public long overrunCount() {
        return header.loOverrunCount();
    }

    /** Reads that found fewer bytes than asked for. */
    public long underrunCount() {
        return header.loUnderrunCount();
    }

    /**
     * Tells the other side, through the ring's header, that the ring's owner has let go of it: this side will
     * neither write nor read it again. A C side asks {@code lanehost_ring_owner_closed}, to stop waiting for bytes and
     * release its reference. Idempotent; any thread.
     */
    public void markOwnerClosed() {
        header.soOwnerClosed();
    }

    /** Whether the ring's owner has let go of it ({@link #markOwnerClosed}, or a C owner's {@code lanehost_ring_mark_owner_closed}). */
    public boolean isOwnerClosed() {
        return header.lvOwnerClosed();
    }

    /** The whole ring memory, header included, to hand to C. */
    public MemorySegment memory() {
        return header.memory;
    }

    /** Frees the memory if this ring allocated it; a wrapped or caller-initialized ring is left alone. */
    @Override
    public void close() {
        if (ownArena != null && ownArena.scope().isAlive()) {
            RawCopy rawWrite = producer.raw;
            RawCopy rawRead = consumer.raw;
            if (rawWrite != null) {
                RawCopy.closeAndWait(rawWrite, rawRead); // no memcpy into or out of the memory may run once it is freed
            }
            try {
                ownArena.close();
            } catch (RuntimeException e) {
                if (rawWrite != null) {
                    rawWrite.reopen(); // still open: writes and reads go on
                    rawRead.reopen();
                }
                throw e;
            }
        }
    }

    @Override
    public String toString() {
        if (!header.memory.scope().isAlive()) {
            return "SpscByteRing[capacity=" + capacity + ", closed]";
        }
        try {
            return "SpscByteRing[capacity=" + capacity + ", readable=" + readable() + ", doorbell=" + doorbell()
                    + ", overruns=" + overrunCount() + ", underruns=" + underrunCount() + ", wakes=" + wakeCount() + "]";
        } catch (IllegalStateException closedMeanwhile) {
            return "SpscByteRing[capacity=" + capacity + ", closed]";
        }
    }

    // ---------------------------------------------------------------- internals

    /** Whether this ring's writer and reader copy pieces of {@link RawCopy#MIN_PIECE} bytes and more by {@code memcpy}. */
    boolean copiesLongPiecesNatively() {
        return producer.raw != null;
    }

    /** The consumer's side, for the tests of its steps. */
    RingConsumer consumerSide() {
        return consumer;
    }
}
