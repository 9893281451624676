package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A producer's long pieces copied into a ring this module allocated, by the C library's {@code memcpy} at the ring's
 * raw address: across cores glibc's {@code rep movsb} need not fetch the lines it overwrites from the consumer that
 * read them last, and a Java writer moved 4 KiB pieces 2× faster this way. The raw address bypasses the arena's own
 * guard against a close during the copy, so this class keeps one: the producer raises {@code writing} and then looks
 * at {@code closing}; the closer raises {@code closing}, fences every thread ({@link ProducerFence}), and waits for
 * {@code writing} to fall before it frees the memory (the asymmetric barrier the wake protocol uses: either the
 * producer sees {@code closing} and copies nothing, or the closer sees {@code writing} and waits).
 *
 * <p>One per ring, and only where it can work: native access for this module (linking would warn otherwise) and
 * membarrier. Only the producer and a closer touch it; its flags are padded off the objects around it (a superclass's
 * fields come first: the Disruptor's way), so the producer's two stores a long write never take a line the consumer
 * reads.
 */
final class RawCopy extends RawCopyFlags {
    /** Pieces shorter than this go through {@link MemorySegment#copy}, cheaper on one thread. */
    static final long MIN_PIECE = 2048;
    /** A critical call holds off safepoints while it runs: one call copies at most this much. */
    static final long MAX_PER_CALL = 256 * 1024;

    private static final MethodHandle MEMCPY = linkMemcpy();
    private static final VarHandle WRITING;
    private static final VarHandle CLOSING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WRITING = lookup.findVarHandle(RawCopyFlags.class, "writing", int.class);
            CLOSING = lookup.findVarHandle(RawCopyFlags.class, "closing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long q01, q02, q03, q04, q05, q06, q07, q08;

    private RawCopy(long dataAddress) {
        super(dataAddress);
    }

    /** A guard for a ring whose data starts at {@code data}, or null where raw copies cannot be made safely. */
    static RawCopy forOwnMemory(MemorySegment data) {
        return MEMCPY != null && ProducerFence.isSupported() ? new RawCopy(data.address()) : null;
    }

    /**
     * Copies {@code length} bytes of {@code src} from {@code srcIndex} to {@code dataOffset} bytes into the data.
     *
     * @throws IllegalStateException if the ring closed (nothing was copied)
     */
    void fromArray(byte[] src, int srcIndex, long dataOffset, int length) {
        fromSegment(MemorySegment.ofArray(src), srcIndex, dataOffset, length);
    }

    /**
     * Copies {@code length} bytes of {@code src} from {@code srcOffset} to {@code dataOffset} bytes into the data. The
     * call holds {@code src}'s arena for the copy, as {@link MemorySegment#copy} would; {@code src} must not overlap
     * the ring's memory ({@code memcpy} does not allow it).
     *
     * @throws IllegalStateException if the ring closed (nothing was copied) or {@code src}'s arena is closed
     * @throws WrongThreadException if {@code src} is confined to another thread
     */
    void fromSegment(MemorySegment src, long srcOffset, long dataOffset, long length) {
        WRITING.setOpaque(this, 1);
        VarHandle.releaseFence(); // a compiler barrier: the store above stays before the load below (the closer fences the CPU)
        try {
            if ((int) CLOSING.getOpaque(this) != 0) {
                throw new IllegalStateException("the ring is closed");
            }
            for (long done = 0; done < length; ) {
                long piece = Math.min(MAX_PER_CALL, length - done);
                long ignored = (long) MEMCPY.invokeExact(dataAddress + dataOffset + done, src.asSlice(srcOffset + done, piece), piece);
                done += piece;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError("memcpy threw a checked exception", e);
        } finally {
            WRITING.setRelease(this, 0);
        }
    }

    /** Whether {@code src}, {@code length} bytes from {@code srcOffset}, lies in native memory that meets the ring's. */
    boolean overlaps(MemorySegment src, long srcOffset, long length, long ringBytes) {
        if (!src.isNative()) {
            return false;
        }
        long start = src.address() + srcOffset;
        long ringStart = dataAddress;
        return start < ringStart + ringBytes && ringStart < start + length;
    }

    /** Closer: after this returns no copy runs or will start; undone by {@link #reopen()} if the close fails. */
    void closeAndWait() {
        CLOSING.setVolatile(this, 1);
        ProducerFence.fenceOtherThreads();
        while ((int) WRITING.getVolatile(this) != 0) {
            Thread.onSpinWait();
        }
    }

    /** The close did not happen after all: copies may run again. */
    void reopen() {
        CLOSING.setVolatile(this, 0);
    }

    private static MethodHandle linkMemcpy() {
        if (!RawCopy.class.getModule().isNativeAccessEnabled()) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            // void *memcpy(void *dst, const void *src, size_t n): dst as a number (no segment, no arena acquired),
            // src in place (critical with heap access), the result as a number.
            return linker.downcallHandle(linker.defaultLookup().findOrThrow("memcpy"),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), Linker.Option.critical(true));
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
    /** Producer: 1 while a copy runs. */
    int writing;
    /** Closer: 1 once the ring is closing. */
    int closing;
    /** Where the ring's data starts. */
    final long dataAddress;

    RawCopyFlags(long dataAddress) {
        this.dataAddress = dataAddress;
    }
}
