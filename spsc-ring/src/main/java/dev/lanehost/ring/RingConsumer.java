package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_CACHED_PRODUCER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.UNDERRUN_COUNT_OFFSET;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The consumer's side of a ring: the one path every read takes (claim the bytes there, copy them out, release the
 * position, which frees them), the whole-frames read, and the wait for bytes (steps 1 to 5 of the protocol
 * in the package's comment). One thread only.
 */
final class RingConsumer extends RingSide {
    /** {@link #announceAndRecheck}: the re-check found the bytes (a wake word to sleep on is never negative). */
    static final int ENOUGH_READABLE = -1;

    private final WakeWord wakeWord;

    RingConsumer(RingHeader header, RawCopy raw, ByteBuffer dataView, WakeWord wakeWord) {
        super(header, raw, dataView);
        this.wakeWord = wakeWord;
    }

    /**
     * The consumer's one path, every read's: claim the bytes after its position, copy out (in two pieces when they
     * straddle the end of the data), release the position, which frees them. {@code dst} is a {@code byte[]}, a
     * {@link MemorySegment} or a direct {@link ByteBuffer} (then {@link #dataView} is there), checked by the entry.
     *
     * @return the bytes read; fewer than {@code length} counts an underrun
     */
    long read(Object dst, long offset, long length) {
        assert isOwnerThread() : ownerMessage();
        enter();
        try {
            long head = lpLong(CONSUMER_POSITION_OFFSET); // plain: only this side writes it
            long count = claim(head, length);
            if (count == 0) {
                return 0;
            }
            long index = head & mask;
            long first = Math.min(count, capacity - index);
            copyOut(index, dst, offset, first);
            if (count > first) { // straddles the end: the rest comes from the start of the data
                copyOut(0, dst, offset + first, count - first);
            }
            release(head, count);
            return count;
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        } finally {
            exit();
        }
    }

    /** How many of {@code length} bytes are there after {@code head}; counts an underrun if fewer. */
    private long claim(long head, long length) {
        long tail = lpLong(CONSUMER_CACHED_PRODUCER_POSITION_OFFSET);
        long available = tail - head;
        if (Long.compareUnsigned(available, capacity) > 0 || available < length) {
            // Acquire pairs with the producer's release: the bytes it published are visible.
            tail = lvLong(PRODUCER_POSITION_OFFSET);
            spLong(CONSUMER_CACHED_PRODUCER_POSITION_OFFSET, tail);
            available = tail - head;
            if (Long.compareUnsigned(available, capacity) > 0) {
                throw header.corrupt(tail, head);
            }
        }
        long count = Math.min(length, available);
        if (count < length) {
            poLong(UNDERRUN_COUNT_OFFSET, lpLong(UNDERRUN_COUNT_OFFSET) + 1);
        }
        return count;
    }

    /** Copies a piece from {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyOut(long index, Object buffer, long offset, long length) {
        if (buffer instanceof byte[] array) {
            if (raw != null && length >= RawCopy.MIN_PIECE) {
                raw.toArray(array, (int) offset, index, (int) length);
            } else {
                copyOut(index, array, (int) offset, (int) length);
            }
        } else if (buffer instanceof ByteBuffer direct) {
            direct.put((int) offset, dataView, (int) index, (int) length);
        } else {
            MemorySegment segment = (MemorySegment) buffer;
            if (raw != null && length >= RawCopy.MIN_PIECE && !raw.overlaps(segment, offset, length, capacity)) {
                raw.toSegment(segment, offset, index, length);
            } else {
                copyOut(index, segment, offset, length);
            }
        }
    }

    private void release(long head, long count) {
        // Release: the producer that acquires the new position overwrites these bytes only after our copy.
        soLong(CONSUMER_POSITION_OFFSET, head + count);
    }

    /** See {@link SpscByteRing#readFrames}. */
    int readFrames(byte[] dst, int offset, int frames, int frameBytes, byte fill) {
        int span = frameSpan(frames, frameBytes);
        java.util.Objects.checkFromIndexSize(offset, span, dst.length);
        int whole = (int) Math.min(frames, readable() / frameBytes);
        int got = whole > 0 ? (int) read(dst, offset, (long) whole * frameBytes) : 0; // all of it is there: counts nothing
        if (got < span) {
            Arrays.fill(dst, offset + got, offset + span, fill);
            poCount(UNDERRUN_COUNT_OFFSET);
        }
        return whole;
    }

    private long readable() {
        return header.readable();
    }

    // ---------------------------------------------------------------- waiting (steps 1 to 5)

    static long saturatedNanos(java.time.Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** See {@link SpscByteRing#awaitReadable}: the arguments checked, the interrupt looked at. */
    boolean awaitReadable(long minBytes, long timeoutNanos) throws InterruptedException {
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
                wakeWord.sleep(announced, Math.min(remaining, SpscByteRing.INTERRUPT_CHECK_NANOS)); // step 5
                if (Thread.interrupted()) {
                    wakeWord.casWithdraw(announced);
                    throw new InterruptedException();
                }
                remaining = timeoutNanos - (System.nanoTime() - start);
            }
            if (remaining <= 0) {
                // The deadline passed (asleep or not): timed out, even if bytes arrived as it passed.
                wakeWord.casWithdraw(announced);
                return false;
            }
        }
    }

    /**
     * Steps 2 to 4: announce, fence the producer, re-check.
     *
     * @return {@link #ENOUGH_READABLE} if the re-check found {@code minBytes} (the announcement withdrawn), else the
     *         announced wake word, to sleep on
     */
    int announceAndRecheck(long minBytes) {
        int announced = wakeWord.casAnnounce(); // step 2
        wakeWord.fenceProducer(); // step 3
        if (readable() >= minBytes) { // step 4
            wakeWord.casWithdraw(announced);
            return ENOUGH_READABLE;
        }
        return announced;
    }
}
