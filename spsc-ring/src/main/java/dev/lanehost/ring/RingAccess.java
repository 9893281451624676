package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.HEADER_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * How the write and read paths reach one ring's memory: the header's words by offset, and short pieces of the data.
 * For memory the ring allocated, with raw copies available ({@link RawCopy}), at its raw address through
 * {@link RawCopy#ALL}: only bounds and alignment are checked, and the side's {@link RawCopy#enter()} keeps a close
 * away. Otherwise through the ring's own segment, checked as any segment access is (a caller's memory, whose
 * lifetime the caller keeps). Observers and the waiting consumer always use the segment. Each side is one
 * ({@link RingSide} extends it), so a transfer reaches the memory through one object fewer.
 *
 * <p>The accessors' names say their memory order (the package's convention): {@code lp} plain load, {@code lv}
 * acquire load, {@code sp} plain store, {@code po} opaque store, {@code so} release store.
 */
class RingAccess {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment memory;
    /** Whether accesses go to {@link #address} through {@link RawCopy#ALL}. */
    private final boolean raw;
    /** The ring memory's address when {@link #raw}, else 0 (offsets then count from the segment's start). */
    private final long address;

    RingAccess(MemorySegment memory, boolean raw) {
        this.memory = memory;
        this.raw = raw;
        this.address = raw ? memory.address() : 0;
    }

    long lpLong(long offset) {
        return raw ? (long) LONG.get(RawCopy.ALL, address + offset) : (long) LONG.get(memory, offset);
    }

    long lvLong(long offset) {
        return raw ? (long) LONG.getAcquire(RawCopy.ALL, address + offset) : (long) LONG.getAcquire(memory, offset);
    }

    void spLong(long offset, long value) {
        if (raw) {
            LONG.set(RawCopy.ALL, address + offset, value);
        } else {
            LONG.set(memory, offset, value);
        }
    }

    void poLong(long offset, long value) {
        if (raw) {
            LONG.setOpaque(RawCopy.ALL, address + offset, value);
        } else {
            LONG.setOpaque(memory, offset, value);
        }
    }

    void soLong(long offset, long value) {
        if (raw) {
            LONG.setRelease(RawCopy.ALL, address + offset, value);
        } else {
            LONG.setRelease(memory, offset, value);
        }
    }

    int lpInt(long offset) {
        return raw ? (int) INT.get(RawCopy.ALL, address + offset) : (int) INT.get(memory, offset);
    }

    /** Copies {@code length} bytes of {@code src} from {@code offset} to {@code index} of the data. */
    void copyIn(byte[] src, int offset, long index, int length) {
        if (raw) {
            MemorySegment.copy(src, offset, RawCopy.ALL, JAVA_BYTE, address + HEADER_LENGTH + index, length);
        } else {
            MemorySegment.copy(src, offset, memory, JAVA_BYTE, HEADER_LENGTH + index, length);
        }
    }

    /** Copies {@code length} bytes of {@code src} from {@code offset} to {@code index} of the data. */
    void copyIn(MemorySegment src, long offset, long index, long length) {
        if (raw) {
            MemorySegment.copy(src, offset, RawCopy.ALL, address + HEADER_LENGTH + index, length);
        } else {
            MemorySegment.copy(src, offset, memory, HEADER_LENGTH + index, length);
        }
    }

    /** Copies {@code length} bytes from {@code index} of the data to {@code dst} from {@code offset}. */
    void copyOut(long index, byte[] dst, int offset, int length) {
        if (raw) {
            MemorySegment.copy(RawCopy.ALL, JAVA_BYTE, address + HEADER_LENGTH + index, dst, offset, length);
        } else {
            MemorySegment.copy(memory, JAVA_BYTE, HEADER_LENGTH + index, dst, offset, length);
        }
    }

    /** Copies {@code length} bytes from {@code index} of the data to {@code dst} from {@code offset}. */
    void copyOut(long index, MemorySegment dst, long offset, long length) {
        if (raw) {
            MemorySegment.copy(RawCopy.ALL, address + HEADER_LENGTH + index, dst, offset, length);
        } else {
            MemorySegment.copy(memory, HEADER_LENGTH + index, dst, offset, length);
        }
    }
}
