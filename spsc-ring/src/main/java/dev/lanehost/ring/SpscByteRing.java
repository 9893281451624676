package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.ALIGNMENT;
import static dev.lanehost.ring.SpscByteRingDescriptor.CAPACITY_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_CACHED_PRODUCER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.DOORBELL_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.HEADER_LENGTH;
import static dev.lanehost.ring.SpscByteRingDescriptor.LAYOUT_VERSION;
import static dev.lanehost.ring.SpscByteRingDescriptor.MAGIC;
import static dev.lanehost.ring.SpscByteRingDescriptor.MAGIC_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.OVERRUN_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.OWNER_CLOSED_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_CACHED_CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.UNDERRUN_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.VERSION_OFFSET;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
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
 * <p>Ordering: acquire/release only. The write and read paths allocate nothing.
 *
 * <p>Waiting (Linux): instead of polling, the consumer may sleep until bytes arrive
 * ({@link #awaitReadable}), and whichever side produces, Java or C, wakes it, provided it runs in this
 * process. The 32-bit wake word ({@link SpscByteRingDescriptor#WAKE_WORD_OFFSET}) is a futex word: bit 0
 * says a consumer is waiting. The protocol, the same in {@code lanehost_ring.h}:
 * <ol>
 *   <li>Consumer: check {@code readable()}; enough, done, without touching the wake word.</li>
 *   <li>Announce: read the wake word (acquire); if bit 0 is clear, set it with a compare-and-swap
 *       (acquire), retrying with the value a failed one saw. The word now holds the value {@code w} to
 *       sleep on.</li>
 *   <li>Fence the producer: {@code membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)}; when it returns, every
 *       other thread of this process has run a full memory barrier.</li>
 *   <li>Re-check {@code readable()}; enough: withdraw (CAS {@code w} to {@code w} without bit 0; if that
 *       fails the producer cleared the bit itself) and return.</li>
 *   <li>{@code futex_wait(word, w, remaining time)}: returns at once if the word is no longer {@code w},
 *       when woken, or at the timeout. Once the deadline has passed: withdraw and return false, even if bytes
 *       arrived as it passed (the next read finds them), so a lost wake-up could never pass for a late
 *       success. Otherwise back to 2.</li>
 *   <li>Producer, after the release store of its position in a write that published bytes: a compiler
 *       barrier, then a plain load of the wake word. Bit 0 clear: done. That load of its own cache line is
 *       all a write pays when nobody waits: no read-modify-write, no fence instruction, no system call.</li>
 *   <li>Bit 0 set: clear it (the consumer announces again if it sleeps again), count a wake
 *       ({@link #wakeCount()}), {@code futex_wake(word)}.</li>
 * </ol>
 * No lost wake-up: this is Dekker's pattern (each side stores its flag and loads the other's), which needs
 * a store-load barrier on both sides; step 3 puts the producer's half into the producer's thread from
 * outside, only when a consumer is about to sleep. The membarrier splits the producer's instructions at a
 * full barrier: if its load (6) comes after it, the load sees the bit set in step 2 and the producer wakes
 * the consumer; if before, the position store that precedes the load is visible when the membarrier
 * returns and the re-check (4) sees the bytes. A consumer that reaches {@code futex_wait(w)} after step 7
 * cleared the bit returns at once, because the kernel compares the word with {@code w} before sleeping.
 * membarrier's private command reaches this process's threads only: a consumer whose producer is in
 * another process (ring memory shared between processes) must poll.
 */
public final class SpscByteRing implements AutoCloseable {
    /**
     * The longest single sleep of {@link #awaitReadable}: a Java interrupt cannot reach a thread asleep in
     * the kernel, so a long wait sleeps in slices and checks between them. 50 ms: an interrupted consumer
     * notices within a blink, and a consumer that waits all day wakes only 20 times a second to look.
     */
    public static final long INTERRUPT_CHECK_NANOS = 50_000_000L;

    /** {@link #announceAndRecheck}: the re-check found the bytes (a wake word to sleep on is never negative). */
    static final int ENOUGH_READABLE = -1;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** The words of {@code lanehost_ring_status_text(LANEHOST_RING_CORRUPT)}, so both languages say the same. */
    private static final String CORRUPT_POSITIONS = "ring positions are corrupt: the producer is behind the consumer "
            + "or more than the capacity ahead of it (the header was overwritten)";
    private static final VarHandle PRODUCER_THREAD;
    private static final VarHandle CONSUMER_THREAD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_THREAD = lookup.findVarHandle(SpscByteRing.class, "producerThread", Thread.class);
            CONSUMER_THREAD = lookup.findVarHandle(SpscByteRing.class, "consumerThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemorySegment memory;
    private final long capacity;
    private final long mask;
    /** Non-null when this ring allocated its own memory and must free it on close. */
    private final Arena ownArena;
    /**
     * The data region as a ByteBuffer, for copies to and from direct buffers without wrapping them in a
     * segment (which allocates). Only absolute bulk methods are used, which never move its position, so
     * both sides share it. Null above 2 GiB, where a ByteBuffer cannot reach.
     */
    private final ByteBuffer dataView;
    private final WakeWord wakeWord;
    /**
     * Raw access, the producer's guard and the consumer's: both non-null only for memory this ring allocated, where
     * the write and read paths touch the memory at its raw address and copy long pieces by {@code memcpy} (see
     * {@link RawCopy}).
     */
    private final RawCopy rawWrite;
    private final RawCopy rawRead;
    /** The write and read paths' way to the memory: raw when {@link #rawWrite} is there, the segment otherwise. */
    private final RingAccess access;

    // Single-writer guards, set by the first producer/consumer call when assertions are enabled.
    @SuppressWarnings("unused")
    private volatile Thread producerThread;
    @SuppressWarnings("unused")
    private volatile Thread consumerThread;

    private SpscByteRing(MemorySegment memory, long capacity, Arena ownArena) {
        this.memory = memory;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.ownArena = ownArena;
        this.dataView = capacity <= Integer.MAX_VALUE ? memory.asSlice(HEADER_LENGTH, capacity).asByteBuffer() : null;
        this.rawWrite = ownArena != null ? RawCopy.forOwnMemory(memory.asSlice(HEADER_LENGTH)) : null;
        this.rawRead = rawWrite != null ? RawCopy.forOwnMemory(memory.asSlice(HEADER_LENGTH)) : null;
        this.access = new RingAccess(memory, rawWrite != null);
        this.wakeWord = new WakeWord(memory, access);
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
            format(memory, capacity);
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
        checkMemory(memory, capacity);
        format(memory, capacity);
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
        return new SpscByteRing(memory, capacity, null);
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
        assert isProducerThread() : producerMessage();
        enter(rawWrite);
        try {
            long tail = access.get(PRODUCER_POSITION_OFFSET);
            int count = (int) claimWritable(tail, length);
            if (count == 0) {
                return 0;
            }
            long index = tail & mask;
            int first = (int) Math.min(count, capacity - index);
            copyIn(src, offset, index, first);
            if (count > first) { // straddles the end: the rest goes to the start of the data
                copyIn(src, offset + first, 0, count - first);
            }
            publish(tail, count);
            return count;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        } finally {
            exit(rawWrite);
        }
    }

    /**
     * Copies up to {@code length} bytes of {@code src} from {@code offset} into the ring.
     *
     * @return the number of bytes copied; fewer than {@code length} counts an overrun
     * @throws IndexOutOfBoundsException if offset and length do not lie within src
     */
    public long write(MemorySegment src, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        assert isProducerThread() : producerMessage();
        enter(rawWrite);
        try {
            long tail = access.get(PRODUCER_POSITION_OFFSET);
            long count = claimWritable(tail, length);
            if (count == 0) {
                return 0;
            }
            long index = tail & mask;
            long first = Math.min(count, capacity - index);
            copyIn(src, offset, index, first);
            if (count > first) {
                copyIn(src, offset + first, 0, count - first);
            }
            publish(tail, count);
            return count;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        } finally {
            exit(rawWrite);
        }
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
        } else if (dataView == null) {
            count = (int) write(MemorySegment.ofBuffer(src), 0, src.remaining());
        } else {
            assert isProducerThread() : producerMessage();
            enter(rawWrite);
            try {
                long tail = access.get(PRODUCER_POSITION_OFFSET);
                count = (int) claimWritable(tail, src.remaining());
                if (count == 0) {
                    return 0;
                }
                int index = (int) (tail & mask);
                int first = (int) Math.min(count, capacity - index);
                dataView.put(index, src, position, first);
                if (count > first) {
                    dataView.put(0, src, position + first, count - first);
                }
                publish(tail, count);
            } catch (IllegalStateException e) {
                throw whenClosed(e);
            } finally {
                exit(rawWrite);
            }
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
        Objects.checkFromIndexSize(offset, frameSpan(frames, frameBytes), src.length);
        int whole = (int) Math.min(frames, producerFree() / frameBytes);
        if (whole > 0) {
            write(src, offset, whole * frameBytes); // all of it fits: counts nothing
        }
        if (whole < frames) {
            count(OVERRUN_COUNT_OFFSET);
        }
        return whole;
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
        assert isConsumerThread() : consumerMessage();
        enter(rawRead);
        try {
            long head = access.get(CONSUMER_POSITION_OFFSET);
            int count = (int) claimReadable(head, length);
            if (count == 0) {
                return 0;
            }
            long index = head & mask;
            int first = (int) Math.min(count, capacity - index);
            copyOut(index, dst, offset, first);
            if (count > first) {
                copyOut(0, dst, offset + first, count - first);
            }
            release(head, count);
            return count;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        } finally {
            exit(rawRead);
        }
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
        assert isConsumerThread() : consumerMessage();
        enter(rawRead);
        try {
            long head = access.get(CONSUMER_POSITION_OFFSET);
            long count = claimReadable(head, length);
            if (count == 0) {
                return 0;
            }
            long index = head & mask;
            long first = Math.min(count, capacity - index);
            copyOut(index, dst, offset, first);
            if (count > first) {
                copyOut(0, dst, offset + first, count - first);
            }
            release(head, count);
            return count;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        } finally {
            exit(rawRead);
        }
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
        } else if (dataView == null) {
            count = (int) read(MemorySegment.ofBuffer(dst), 0, dst.remaining());
        } else {
            assert isConsumerThread() : consumerMessage();
            enter(rawRead);
            try {
                long head = access.get(CONSUMER_POSITION_OFFSET);
                count = (int) claimReadable(head, dst.remaining());
                if (count == 0) {
                    return 0;
                }
                int index = (int) (head & mask);
                int first = (int) Math.min(count, capacity - index);
                dst.put(position, dataView, index, first);
                if (count > first) {
                    dst.put(position + first, dataView, 0, count - first);
                }
                release(head, count);
            } catch (IllegalStateException e) {
                throw whenClosed(e);
            } finally {
                exit(rawRead);
            }
        }
        dst.position(position + count);
        return count;
    }

    /**
     * Consumer: waits until at least {@code minBytes} are readable or the timeout passes, sleeping in the
     * kernel rather than spinning; any producer of this process, Java or C, wakes it with its next write (steps 1 to 5 of
     * the protocol in the class comment). Writes that publish fewer than {@code minBytes} wake it too, and it
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
        assert isConsumerThread() : consumerMessage();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        try {
            return awaitReadableNanos(minBytes, saturatedNanos(timeout));
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    private boolean awaitReadableNanos(long minBytes, long timeoutNanos) throws InterruptedException {
        if (readable() >= minBytes) { // step 1
            return true;
        }
        if (timeoutNanos == 0) {
            return false;
        }
        if (!Futex.isSupported() || !ProducerFence.isSupported()) {
            throw new UnsupportedOperationException("waiting needs Linux futexes and membarrier(2) with the private expedited "
                    + "command (os " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", arch "
                    + System.getProperty("os.arch") + "; Linux 4.14 or later, not forbidden by a seccomp filter): poll readable() instead");
        }
        long start = System.nanoTime();
        while (true) {
            int announced = announceAndRecheck(minBytes);
            if (announced == ENOUGH_READABLE) {
                return true;
            }
            long remaining = timeoutNanos - (System.nanoTime() - start);
            if (remaining > 0) {
                wakeWord.sleep(announced, Math.min(remaining, INTERRUPT_CHECK_NANOS)); // step 5
                if (Thread.interrupted()) {
                    wakeWord.withdraw(announced);
                    throw new InterruptedException();
                }
                remaining = timeoutNanos - (System.nanoTime() - start);
            }
            if (remaining <= 0) {
                // The deadline passed (asleep or not): timed out, even if bytes arrived as it passed.
                wakeWord.withdraw(announced);
                return false;
            }
        }
    }

    /**
     * Steps 2 to 4 of {@link #awaitReadable}: announce, fence the producer, re-check. Consumer only.
     *
     * @return {@link #ENOUGH_READABLE} if the re-check found {@code minBytes} (the announcement withdrawn), else the
     *         announced wake word, to sleep on
     */
    int announceAndRecheck(long minBytes) {
        int announced = wakeWord.announce(); // step 2
        wakeWord.fenceProducer(); // step 3
        if (readable() >= minBytes) { // step 4
            wakeWord.withdraw(announced);
            return ENOUGH_READABLE;
        }
        return announced;
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
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
        int span = frameSpan(frames, frameBytes);
        Objects.checkFromIndexSize(offset, span, dst.length);
        int whole = (int) Math.min(frames, readable() / frameBytes);
        int got = whole > 0 ? read(dst, offset, whole * frameBytes) : 0; // all of it is there: counts nothing
        if (got < span) {
            Arrays.fill(dst, offset + got, offset + span, fill);
            count(UNDERRUN_COUNT_OFFSET);
        }
        return whole;
    }

    /** The bytes of {@code frames} frames of {@code frameBytes}, checked: a frame the ring could never hold is refused. */
    private int frameSpan(int frames, int frameBytes) {
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

    /**
     * Producer: the bytes it may write now (only more once the consumer frees some). Unlike {@link #writable()}, a
     * header whose producer is behind the consumer is reported, as a write reports it.
     */
    private long producerFree() {
        try {
            long tail = access.get(PRODUCER_POSITION_OFFSET);
            long head = access.getAcquire(CONSUMER_POSITION_OFFSET); // pairs with the consumer's release, as in a write
            long used = tail - head;
            if (Long.compareUnsigned(used, capacity) > 0) {
                throw corrupt(tail, head);
            }
            return capacity - used;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** One more overrun or underrun: the counter's side only (the producer's or the consumer's). */
    private void count(long counterOffset) {
        try {
            access.setOpaque(counterOffset, access.get(counterOffset) + 1);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    // ---------------------------------------------------------------- observers (any thread)

    /** Bytes the consumer could read now, in [0, capacity]. */
    public long readable() {
        try {
            // Consumer first: the producer only moves ahead of it, so a working ring never shows a negative
            // difference. Positions are unsigned counters, so the difference is compared unsigned: an observer may
            // see more than the capacity (the consumer moved on between the loads) and a corrupt header anything,
            // a producer behind the consumer included (a huge unsigned difference). Both read as the capacity, as
            // lanehost_ring_readable does, so readable() and writable() never leave [0, capacity]; the transfer
            // paths report the corruption.
            long head = (long) LONG.getAcquire(memory, (long) CONSUMER_POSITION_OFFSET);
            long tail = (long) LONG.getAcquire(memory, (long) PRODUCER_POSITION_OFFSET);
            long available = tail - head;
            return Long.compareUnsigned(available, capacity) > 0 ? capacity : available;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
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
        try {
            return (long) LONG.getAcquire(memory, (long) PRODUCER_POSITION_OFFSET);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Total bytes ever read. */
    public long consumerPosition() {
        try {
            return (long) LONG.getAcquire(memory, (long) CONSUMER_POSITION_OFFSET);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Writes that published at least one byte, by either language. */
    public long doorbell() {
        try {
            return (long) LONG.getAcquire(memory, (long) DOORBELL_OFFSET);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Wake system calls the producer made because a consumer had announced that it sleeps. */
    public long wakeCount() {
        try {
            return wakeWord.wakeCount();
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Whether a consumer has announced that it is going to sleep and no write has woken it since. */
    public boolean hasWaiter() {
        try {
            return wakeWord.hasWaiter();
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Writes that could not place every byte offered. */
    public long overrunCount() {
        try {
            return (long) LONG.getOpaque(memory, (long) OVERRUN_COUNT_OFFSET);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Reads that found fewer bytes than asked for. */
    public long underrunCount() {
        try {
            return (long) LONG.getOpaque(memory, (long) UNDERRUN_COUNT_OFFSET);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /**
     * Tells the other side, through the ring's header, that the ring's owner has let go of it: this side will
     * neither write nor read it again. A C side asks {@code lanehost_ring_owner_closed}, to stop waiting for bytes and
     * release its reference. Idempotent; any thread.
     */
    public void markOwnerClosed() {
        try {
            INT.setRelease(memory, (long) OWNER_CLOSED_OFFSET, 1);
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** Whether the ring's owner has let go of it ({@link #markOwnerClosed}, or a C owner's {@code lanehost_ring_mark_owner_closed}). */
    public boolean isOwnerClosed() {
        try {
            return (int) INT.getAcquire(memory, (long) OWNER_CLOSED_OFFSET) != 0;
        } catch (IllegalStateException e) {
            throw whenClosed(e);
        }
    }

    /** The whole ring memory, header included, to hand to C. */
    public MemorySegment memory() {
        return memory;
    }

    /** Frees the memory if this ring allocated it; a wrapped or caller-initialized ring is left alone. */
    @Override
    public void close() {
        if (ownArena != null && ownArena.scope().isAlive()) {
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
        if (!memory.scope().isAlive()) {
            return "SpscByteRing[capacity=" + capacity + ", closed]";
        }
        try {
            return "SpscByteRing[capacity=" + capacity + ", readable=" + readable() + ", doorbell=" + doorbell()
                    + ", overruns=" + overrunCount() + ", underruns=" + underrunCount() + ", wakes=" + wakeCount() + "]";
        } catch (IllegalStateException closedMeanwhile) {
            return "SpscByteRing[capacity=" + capacity + ", closed]";
        }
    }

    /**
     * What a failure of a call on this ring was: "the ring is closed" once its memory's arena is (the JDK's own words
     * for it, "Already closed", name no ring), else the failure as it was (corrupt positions, a segment's arena).
     */
    private IllegalStateException whenClosed(IllegalStateException failure) {
        if (memory.scope().isAlive()) {
            return failure;
        }
        return new IllegalStateException(ownArena != null ? "the ring is closed"
                : "the ring's memory is no longer there: the arena it was wrapped in is closed", failure);
    }

    // ---------------------------------------------------------------- internals

    /** Whether this ring's writer and reader copy pieces of {@link RawCopy#MIN_PIECE} bytes and more by {@code memcpy}. */
    boolean copiesLongPiecesNatively() {
        return rawWrite != null;
    }

    /** Copies a producer's piece to {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyIn(byte[] src, int offset, long index, int length) {
        if (rawWrite != null && length >= RawCopy.MIN_PIECE) {
            rawWrite.fromArray(src, offset, index, length);
        } else {
            access.copyIn(src, offset, index, length);
        }
    }

    /** Copies a producer's piece to {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyIn(MemorySegment src, long offset, long index, long length) {
        if (rawWrite != null && length >= RawCopy.MIN_PIECE && !rawWrite.overlaps(src, offset, length, capacity)) {
            rawWrite.fromSegment(src, offset, index, length);
        } else {
            access.copyIn(src, offset, index, length);
        }
    }

    /** Copies a consumer's piece from {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyOut(long index, byte[] dst, int offset, int length) {
        if (rawRead != null && length >= RawCopy.MIN_PIECE) {
            rawRead.toArray(dst, offset, index, length);
        } else {
            access.copyOut(index, dst, offset, length);
        }
    }

    /** Copies a consumer's piece from {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyOut(long index, MemorySegment dst, long offset, long length) {
        if (rawRead != null && length >= RawCopy.MIN_PIECE && !rawRead.overlaps(dst, offset, length, capacity)) {
            rawRead.toSegment(dst, offset, index, length);
        } else {
            access.copyOut(index, dst, offset, length);
        }
    }

    /** A side's start: keeps a close away while the side touches raw memory (a ring on a caller's memory has no guard). */
    private static void enter(RawCopy guard) {
        if (guard != null) {
            guard.enter();
        }
    }

    private static void exit(RawCopy guard) {
        if (guard != null) {
            guard.exit();
        }
    }

    /** How many of {@code length} bytes fit after {@code tail}; counts an overrun if not all do. */
    private long claimWritable(long tail, long length) {
        long head = access.get(PRODUCER_CACHED_CONSUMER_POSITION_OFFSET);
        long used = tail - head;
        if (Long.compareUnsigned(used, capacity) > 0 || capacity - used < length) {
            // Acquire pairs with the consumer's release: the bytes it freed are no longer being read.
            head = access.getAcquire(CONSUMER_POSITION_OFFSET);
            access.set(PRODUCER_CACHED_CONSUMER_POSITION_OFFSET, head);
            used = tail - head;
            if (Long.compareUnsigned(used, capacity) > 0) {
                throw corrupt(tail, head);
            }
        }
        long count = Math.min(length, capacity - used);
        if (count < length) {
            // Opaque: only this side writes the counter; observers read it with getOpaque.
            access.setOpaque(OVERRUN_COUNT_OFFSET, access.get(OVERRUN_COUNT_OFFSET) + 1);
        }
        return count;
    }

    private void publish(long tail, long count) {
        // Release: a consumer that acquires the new position sees the bytes copied before it.
        access.setRelease(PRODUCER_POSITION_OFFSET, tail + count);
        access.setRelease(DOORBELL_OFFSET, access.get(DOORBELL_OFFSET) + 1);
        if (wakeWord.hasWaiterAfterPublish()) { // steps 6 and 7: a system call only when a consumer announced that it sleeps
            wakeWord.wakeWaiter();
        }
    }

    /** How many of {@code length} bytes are there after {@code head}; counts an underrun if fewer. */
    private long claimReadable(long head, long length) {
        long tail = access.get(CONSUMER_CACHED_PRODUCER_POSITION_OFFSET);
        long available = tail - head;
        if (Long.compareUnsigned(available, capacity) > 0 || available < length) {
            // Acquire pairs with the producer's release: the bytes it published are visible.
            tail = access.getAcquire(PRODUCER_POSITION_OFFSET);
            access.set(CONSUMER_CACHED_PRODUCER_POSITION_OFFSET, tail);
            available = tail - head;
            if (Long.compareUnsigned(available, capacity) > 0) {
                throw corrupt(tail, head);
            }
        }
        long count = Math.min(length, available);
        if (count < length) {
            access.setOpaque(UNDERRUN_COUNT_OFFSET, access.get(UNDERRUN_COUNT_OFFSET) + 1);
        }
        return count;
    }

    private void release(long head, long count) {
        // Release: the producer that acquires the new position overwrites these bytes only after our copy.
        access.setRelease(CONSUMER_POSITION_OFFSET, head + count);
    }

    private IllegalStateException corrupt(long producerPosition, long consumerPosition) {
        return new IllegalStateException(corruptMessage(producerPosition, consumerPosition, capacity));
    }

    private static String corruptMessage(long producerPosition, long consumerPosition, long capacity) {
        return CORRUPT_POSITIONS + ": producer " + Long.toUnsignedString(producerPosition) + ", consumer "
                + Long.toUnsignedString(consumerPosition) + ", capacity " + capacity;
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

    private static void format(MemorySegment memory, long capacity) {
        memory.asSlice(0, HEADER_LENGTH).fill((byte) 0);
        memory.set(ValueLayout.JAVA_INT, VERSION_OFFSET, LAYOUT_VERSION);
        memory.set(ValueLayout.JAVA_LONG, CAPACITY_OFFSET, capacity);
        // The magic goes last, with release: a side that wraps and sees it sees a formatted header.
        INT.setRelease(memory, (long) MAGIC_OFFSET, MAGIC);
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

    private static void checkMemory(MemorySegment memory, long capacity) {
        checkPlacement(memory);
        long needed = HEADER_LENGTH + capacity;
        if (memory.byteSize() < needed) {
            throw new IllegalArgumentException("ring memory is " + memory.byteSize() + " bytes, but a ring of capacity "
                    + capacity + " needs " + needed + " (" + HEADER_LENGTH + " header + capacity)");
        }
    }

    private boolean isProducerThread() {
        Thread current = Thread.currentThread();
        Thread owner = (Thread) PRODUCER_THREAD.compareAndExchange(this, (Thread) null, current);
        return owner == null || owner == current;
    }

    private boolean isConsumerThread() {
        Thread current = Thread.currentThread();
        Thread owner = (Thread) CONSUMER_THREAD.compareAndExchange(this, (Thread) null, current);
        return owner == null || owner == current;
    }

    private String producerMessage() {
        return "SpscByteRing has one producer: " + Thread.currentThread() + " wrote, but " + producerThread + " is the producer";
    }

    private String consumerMessage() {
        return "SpscByteRing has one consumer: " + Thread.currentThread() + " read, but " + consumerThread + " is the consumer";
    }
}
