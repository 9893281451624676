package dev.lanehost.callgate.value;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The caller's buffer region as the stream Jackson's generator flushes into. A write that does not fit is
 * refused whole, before any of it is copied, so nothing is ever written past the region's end.
 */
abstract sealed class RegionOutput extends OutputStream {

    private final long capacity;
    private long written;

    private RegionOutput(long capacity) {
        this.capacity = capacity;
    }

    static RegionOutput of(byte[] buffer, int offset, int length) {
        return new ArrayRegion(buffer, offset, length);
    }

    static RegionOutput of(MemorySegment segment, long offset, long length) {
        return new SegmentRegion(segment, offset, length);
    }

    /** Bytes written from the region's start. */
    final long written() {
        return written;
    }

    @Override
    public final void write(int b) throws IOException {
        reserve(1);
        put(written, (byte) b);
        written++;
    }

    @Override
    public final void write(byte[] bytes, int offset, int length) throws IOException {
        reserve(length);
        put(written, bytes, offset, length);
        written += length;
    }

    private void reserve(int length) throws Refused {
        if (length > capacity - written) {
            throw new Refused(PlainValueFailure.OUT_OF_MEMORY,
                    "the encoded value does not fit in the caller's " + capacity + "-byte buffer");
        }
    }

    abstract void put(long position, byte b) throws Refused;

    abstract void put(long position, byte[] bytes, int offset, int length) throws Refused;

    /**
     * The region refused a write. An {@link IOException} so that it passes through Jackson's generator
     * unchanged; it carries the status the codec reports.
     */
    static final class Refused extends IOException {
        final PlainValueFailure status;

        Refused(PlainValueFailure status, String message) {
            super(message);
            this.status = status;
        }
    }

    private static final class ArrayRegion extends RegionOutput {
        private final byte[] buffer;
        private final int start;

        ArrayRegion(byte[] buffer, int offset, int length) {
            super(length);
            this.buffer = buffer;
            this.start = offset;
        }

        @Override
        void put(long position, byte b) {
            buffer[start + (int) position] = b;
        }

        @Override
        void put(long position, byte[] bytes, int offset, int length) {
            System.arraycopy(bytes, offset, buffer, start + (int) position, length);
        }
    }

    private static final class SegmentRegion extends RegionOutput {
        private final MemorySegment segment;
        private final long start;

        SegmentRegion(MemorySegment segment, long offset, long length) {
            super(length);
            this.segment = segment;
            this.start = offset;
        }

        @Override
        void put(long position, byte b) throws Refused {
            try {
                segment.set(ValueLayout.JAVA_BYTE, start + position, b);
            } catch (RuntimeException e) {
                throw inaccessible(e);
            }
        }

        @Override
        void put(long position, byte[] bytes, int offset, int length) throws Refused {
            try {
                MemorySegment.copy(bytes, offset, segment, ValueLayout.JAVA_BYTE, start + position, length);
            } catch (RuntimeException e) {
                throw inaccessible(e);
            }
        }

        // Checked before encoding starts; this is the segment's arena closing (or its owner thread
        // changing) while the value was being written.
        private static Refused inaccessible(RuntimeException e) {
            Refused refused = new Refused(PlainValueFailure.INVALID_ARGUMENT, "the buffer segment became inaccessible: " + e.getMessage());
            refused.initCause(e);
            return refused;
        }
    }
}
