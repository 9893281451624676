package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Raw access to a ring this module allocated, for one side of it: the header words and short pieces through
 * {@link #ALL} at the ring's raw address, long pieces by the C library's {@code memcpy}. Across cores glibc's
 * {@code memcpy} moved 4 KiB pieces 2× faster than the JDK's copy, and an access through {@link #ALL} costs a bounds
 * and an alignment check where one through the ring's own segment also checks its arena, its length and whether it is
 * read-only (those checks took over a third of a 64-byte write and read on one thread, in async-profiler's samples).
 *
 * <p>The raw address bypasses the arena's own guard against a close during an access, so this class keeps one: the
 * side's thread raises {@code active} and then looks at {@code closing} ({@link #enter()}), touches the memory, and
 * lowers {@code active} ({@link #exit()}); the closer raises {@code closing}, fences every thread
 * ({@link ProducerFence}), and waits for {@code active} to fall before it frees the memory (the asymmetric barrier
 * the wake protocol uses: either the side sees {@code closing} and touches nothing, or the closer sees
 * {@code active} and waits).
 *
 * <p>One per side of a ring, and only where it can work: native access for this module (linking would warn
 * otherwise) and membarrier. Only that side's thread and a closer touch it; its flags are padded off the objects
 * around it (a superclass's fields come first: the Disruptor's way), so a side's two stores a call never take a
 * line the other side reads.
 */
final class RawCopy extends RawCopyFlags {
    /** Pieces shorter than this go through {@link MemorySegment#copy}, cheaper on one thread. */
    static final long MIN_PIECE = 2048;
    /** A critical call holds off safepoints while it runs: one call copies at most this much. */
    static final long MAX_PER_CALL = 256 * 1024;

    /**
     * All of memory, with the global session: a constant, so the JIT folds the liveness, length and read-only checks
     * of an access through it, and keeps only bounds and alignment. Null without native access for this module.
     */
    static final MemorySegment ALL = RawCopy.class.getModule().isNativeAccessEnabled()
            ? MemorySegment.NULL.reinterpret(Long.MAX_VALUE) : null;
    /** {@code memcpy} into the ring: the destination a raw address, the source a segment (maybe on the heap). */
    private static final MethodHandle MEMCPY_IN = linkMemcpy(JAVA_LONG, ADDRESS);
    /** {@code memcpy} out of the ring: the destination a segment (maybe on the heap), the source a raw address. */
    private static final MethodHandle MEMCPY_OUT = MEMCPY_IN == null ? null : linkMemcpy(ADDRESS, JAVA_LONG);
    private static final VarHandle ACTIVE;
    private static final VarHandle CLOSING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACTIVE = lookup.findVarHandle(RawCopyFlags.class, "active", int.class);
            CLOSING = lookup.findVarHandle(RawCopyFlags.class, "closing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The side's thread only: the last array copied and its segment (see {@link #segmentOf}). */
    private byte[] lastArray;
    private MemorySegment lastArraySegment;

    @SuppressWarnings("unused")
    private long q01, q02, q03, q04, q05, q06, q07, q08;

    private RawCopy(long dataAddress) {
        super(dataAddress);
    }

    /**
     * A guard for one side (the producer's or the consumer's) of a ring whose data starts at {@code data}, or null
     * where raw copies cannot be made safely. Each side has its own, so neither side's flag shares a line with the
     * other side's.
     */
    static RawCopy forOwnMemory(MemorySegment data) {
        return ALL != null && MEMCPY_IN != null && MEMCPY_OUT != null && ProducerFence.isSupported()
                ? new RawCopy(data.address()) : null;
    }

    /** Copies {@code length} bytes of {@code src} from {@code srcIndex} to {@code dataOffset} bytes into the data (entered). */
    void fromArray(byte[] src, int srcIndex, long dataOffset, int length) {
        fromSegment(segmentOf(src), srcIndex, dataOffset, length);
    }

    /**
     * Copies {@code length} bytes of {@code src} from {@code srcOffset} to {@code dataOffset} bytes into the data
     * (entered). The call holds {@code src}'s arena for the copy, as {@link MemorySegment#copy} would; {@code src}
     * must not overlap the ring's memory ({@code memcpy} does not allow it).
     *
     * @throws IllegalStateException if {@code src}'s arena is closed
     * @throws WrongThreadException if {@code src} is confined to another thread
     */
    void fromSegment(MemorySegment src, long srcOffset, long dataOffset, long length) {
        copy(true, src, srcOffset, dataOffset, length);
    }

    /** Copies {@code length} bytes from {@code dataOffset} bytes into the data to {@code dst} from {@code dstIndex} (entered). */
    void toArray(byte[] dst, int dstIndex, long dataOffset, int length) {
        toSegment(segmentOf(dst), dstIndex, dataOffset, length);
    }

    /**
     * Copies {@code length} bytes from {@code dataOffset} bytes into the data to {@code dst} from {@code dstOffset}
     * (entered), holding {@code dst}'s arena for the copy; {@code dst} must be writable and must not overlap the ring's
     * memory.
     *
     * @throws IllegalStateException if {@code dst}'s arena is closed
     * @throws WrongThreadException if {@code dst} is confined to another thread
     */
    void toSegment(MemorySegment dst, long dstOffset, long dataOffset, long length) {
        copy(false, dst, dstOffset, dataOffset, length);
    }

    /** Copies {@code length} bytes between {@code dataOffset} of the data and {@code other} from {@code otherOffset}. */
    private void copy(boolean intoRing, MemorySegment other, long otherOffset, long dataOffset, long length) {
        try {
            for (long done = 0; done < length; ) {
                long size = Math.min(MAX_PER_CALL, length - done);
                MemorySegment piece = piece(other, otherOffset + done, size);
                long address = dataAddress + dataOffset + done;
                long ignored = intoRing
                        ? (long) MEMCPY_IN.invokeExact(address, piece, size)
                        : (long) MEMCPY_OUT.invokeExact(piece, address, size);
                done += size;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError("memcpy threw a checked exception", e);
        }
    }

    /**
     * The side's thread, before it touches the memory: raises its flag, then looks for a close (the flag falls again
     * if there is one). Every {@code enter} that returns is followed by one {@link #exit()}.
     *
     * @throws IllegalStateException if the ring is closed (or closing)
     */
    void enter() {
        ACTIVE.setOpaque(this, 1);
        VarHandle.releaseFence(); // a compiler barrier: the store above stays before the load below (the closer fences the CPU)
        if ((int) CLOSING.getOpaque(this) != 0) {
            ACTIVE.setRelease(this, 0);
            throw new IllegalStateException("the ring is closed");
        }
    }

    /** The side's thread, after its last access: the closer may free the memory once the flag falls. */
    void exit() {
        ACTIVE.setRelease(this, 0);
    }

    /**
     * {@code array} as a segment: the one made for it last time when it is the same array. A side that copies whole
     * arrays again and again (a producer's buffer, a consumer's) makes no segment after the first, whether or not the
     * JIT's escape analysis would have removed it (it does not always: in about half the JVMs of a 64 KiB Java-to-Java
     * run, the heap segments of each transfer were allocated, ~200 B a transfer, async-profiler's allocation profile).
     */
    private MemorySegment segmentOf(byte[] array) {
        if (array != lastArray) {
            lastArraySegment = MemorySegment.ofArray(array);
            lastArray = array;
        }
        return lastArraySegment;
    }

    /** {@code length} bytes of {@code segment} from {@code offset}: the segment itself when that is all of it (no slice made). */
    private static MemorySegment piece(MemorySegment segment, long offset, long length) {
        return offset == 0 && length == segment.byteSize() ? segment : segment.asSlice(offset, length);
    }

    /** Whether {@code segment}, {@code length} bytes from {@code offset}, lies in native memory that meets the ring's. */
    boolean overlaps(MemorySegment segment, long offset, long length, long ringBytes) {
        if (!segment.isNative()) {
            return false;
        }
        long start = segment.address() + offset;
        long ringStart = dataAddress;
        return start < ringStart + ringBytes && ringStart < start + length;
    }

    /** Closer: after this returns the side neither touches the memory nor will; undone by {@link #reopen()} if the close fails. */
    void closeAndWait() {
        closeAndWait(this, this);
    }

    /** Closer of a ring's two sides at once, with one fence: after this returns neither side touches the memory or will. */
    static void closeAndWait(RawCopy producer, RawCopy consumer) {
        CLOSING.setVolatile(producer, 1);
        CLOSING.setVolatile(consumer, 1);
        ProducerFence.fenceOtherThreads();
        while ((int) ACTIVE.getVolatile(producer) != 0 || (int) ACTIVE.getVolatile(consumer) != 0) {
            Thread.onSpinWait();
        }
    }

    /** The close did not happen after all: the side may touch the memory again. */
    void reopen() {
        CLOSING.setVolatile(this, 0);
    }

    /**
     * {@code void *memcpy(void *dst, const void *src, size_t n)}, or null without native access for this module. (Without
     * {@code --enable-native-access} a module's access turns on at its first restricted call, after the JDK's warning:
     * whether a ring links {@code memcpy} then depends on what ran before it. Hosts pass the flag.)
     */
    private static MethodHandle linkMemcpy(ValueLayout dst, ValueLayout src) {
        if (!RawCopy.class.getModule().isNativeAccessEnabled()) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            // The ring's side as a number (no segment, no arena acquired), the other side's segment in place
            // (critical with heap access), the result as a number (as an address it would be a new segment a call).
            return linker.downcallHandle(linker.defaultLookup().findOrThrow("memcpy"),
                    FunctionDescriptor.of(JAVA_LONG, dst, src, JAVA_LONG), Linker.Option.critical(true));
        } catch (RuntimeException e) {
            return null;
        }
    }
}

/** A cache line of padding before {@link RawCopyFlags}' fields. */
abstract class RawCopyPadding {
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** {@link RawCopy}'s state, between the padding of its superclass and of its subclass. */
abstract class RawCopyFlags extends RawCopyPadding {
    /** The side's thread: 1 while it touches the memory. */
    int active;
    /** Closer: 1 once the ring is closing. */
    int closing;
    /** Where the ring's data starts. */
    final long dataAddress;

    RawCopyFlags(long dataAddress) {
        this.dataAddress = dataAddress;
    }
}
