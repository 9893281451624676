package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.DOORBELL_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.OVERRUN_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_CACHED_CONSUMER_POSITION_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The producer's side of a ring: the one path every write takes (claim room, copy in, publish the position, ring the
 * doorbell, wake a sleeping consumer), and the whole-frames write. One thread only.
 */
final class RingProducer extends RingSide {
    private final WakeWord wakeWord;

    RingProducer(RingHeader header, RawCopy raw, ByteBuffer dataView, WakeWord wakeWord) {
        super(header, raw, dataView);
        this.wakeWord = wakeWord;
    }

    /**
     * The producer's one path, every write's: claim room after its position, copy in (in two pieces when the bytes
     * straddle the end of the data), publish. {@code src} is a {@code byte[]}, a {@link MemorySegment} or a direct
     * {@link ByteBuffer} (then {@link #dataView} is there), its region checked by the entry.
     *
     * @return the bytes written; fewer than {@code length} counts an overrun
     */
    long write(Object src, long offset, long length) {
        assert isOwnerThread() : ownerMessage();
        enter();
        try {
            long tail = lpLong(PRODUCER_POSITION_OFFSET); // plain: only this side writes it
            long count = claim(tail, length);
            if (count == 0) {
                return 0;
            }
            long index = tail & mask;
            long first = Math.min(count, capacity - index);
            copyIn(src, offset, index, first);
            if (count > first) { // straddles the end: the rest goes to the start of the data
                copyIn(src, offset + first, 0, count - first);
            }
            publish(tail, count);
            return count;
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        } finally {
            exit();
        }
    }

    /** How many of {@code length} bytes fit after {@code tail}; counts an overrun if not all do. */
    private long claim(long tail, long length) {
        long head = lpLong(PRODUCER_CACHED_CONSUMER_POSITION_OFFSET);
        long used = tail - head;
        if (Long.compareUnsigned(used, capacity) > 0 || capacity - used < length) {
            // Acquire pairs with the consumer's release: the bytes it freed are no longer being read.
            head = lvLong(CONSUMER_POSITION_OFFSET);
            spLong(PRODUCER_CACHED_CONSUMER_POSITION_OFFSET, head);
            used = tail - head;
            if (Long.compareUnsigned(used, capacity) > 0) {
                throw header.corrupt(tail, head);
            }
        }
        long count = Math.min(length, capacity - used);
        if (count < length) {
            // Opaque: only this side writes the counter; observers read it with getOpaque.
            poLong(OVERRUN_COUNT_OFFSET, lpLong(OVERRUN_COUNT_OFFSET) + 1);
        }
        return count;
    }

    /** Copies a piece to {@code index} of the data: long ones by {@code memcpy} where this ring may. */
    private void copyIn(Object buffer, long offset, long index, long length) {
        if (buffer instanceof byte[] array) {
            if (raw != null && length >= RawCopy.MIN_PIECE) {
                raw.fromArray(array, (int) offset, index, (int) length);
            } else {
                copyIn(array, (int) offset, index, (int) length);
            }
        } else if (buffer instanceof ByteBuffer direct) {
            dataView.put((int) index, direct, (int) offset, (int) length);
        } else {
            MemorySegment segment = (MemorySegment) buffer;
            if (raw != null && length >= RawCopy.MIN_PIECE && !raw.overlaps(segment, offset, length, capacity)) {
                raw.fromSegment(segment, offset, index, length);
            } else {
                copyIn(segment, offset, index, length);
            }
        }
    }

    private void publish(long tail, long count) {
        // Release: a consumer that acquires the new position sees the bytes copied before it.
        soLong(PRODUCER_POSITION_OFFSET, tail + count);
        soLong(DOORBELL_OFFSET, lpLong(DOORBELL_OFFSET) + 1);
        if (wakeWord.lpWaiterAfterPublish(this)) { // steps 6 and 7: a system call only when a consumer announced that it sleeps
            wakeWord.wakeWaiter();
        }
    }

    /** See {@link SpscByteRing#writeFrames}. */
    int writeFrames(byte[] src, int offset, int frames, int frameBytes) {
        int whole = (int) Math.min(frames, free() / frameBytes);
        if (whole > 0) {
            write(src, offset, (long) whole * frameBytes); // all of it fits: counts nothing
        }
        if (whole < frames) {
            poCount(OVERRUN_COUNT_OFFSET);
        }
        return whole;
    }

    /**
     * The bytes it may write now (only more once the consumer frees some). Unlike {@link SpscByteRing#writable()}, a
     * header whose producer is behind the consumer is reported, as a write reports it.
     */
    private long free() {
        try {
            long tail = lpLong(PRODUCER_POSITION_OFFSET);
            long head = lvLong(CONSUMER_POSITION_OFFSET); // pairs with the consumer's release, as in a write
            long used = tail - head;
            if (Long.compareUnsigned(used, capacity) > 0) {
                throw header.corrupt(tail, head);
            }
            return capacity - used;
        } catch (IllegalStateException e) {
            throw header.whenClosed(e);
        }
    }
}
