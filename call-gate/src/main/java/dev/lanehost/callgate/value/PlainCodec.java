package dev.lanehost.callgate.value;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Encodes plain values to CBOR (RFC 8949) and decodes them back: the values that cross a call gate.
 *
 * <p>Encoding accepts {@code null}; {@code Boolean}; {@code Byte}, {@code Short}, {@code Integer},
 * {@code Long} and {@code BigInteger} (at most {@link #MAX_BIG_INTEGER_BITS} bits plus sign); {@code Float}
 * and {@code Double}; {@code String}, {@code Character}, {@code StringBuilder}, {@code StringBuffer}; enums
 * (as their {@code name()}); {@code byte[]} and {@code ByteBuffer} (its remaining bytes); {@code Collection},
 * {@code Object[]} and primitive arrays other than {@code char[]} as lists; {@code Map} with {@code String}
 * keys and records (as maps of their components, in order). Function-valued entries are left out of maps
 * and records and written as null in lists and at the top. At most {@link #MAX_DEPTH} lists, maps and
 * records nest.
 *
 * <p>Decoding produces {@code null}, {@code Boolean}, {@code Long} ({@code BigInteger} only outside 64
 * bits), {@code Double}, {@code String}, {@code byte[]}, {@code ArrayList} and {@code LinkedHashMap} (in
 * the input's key order). {@code decode(encode(v))} is {@code v} in that normal form.
 *
 * <p>Every failure is a {@link PlainValueException} with the status a gate returns; nothing else escapes
 * except a {@link VirtualMachineError} other than running out of memory or stack ({@code InternalError}:
 * the JVM itself failing). A codec is immutable and safe to share between threads; one per runtime is
 * enough.
 */
public final class PlainCodec {

    /**
     * How many lists, maps and records may nest. Real arguments rarely pass ten; the bound keeps the
     * recursive walks' stack use small on a host thread whose stack size C chose.
     */
    public static final int MAX_DEPTH = 64;
    /**
     * Room the walk's stacks start with, doubled as a value nests deeper (up to {@link #MAX_DEPTH}): most values a
     * gate copies are a list or two deep, and stacks of {@code MAX_DEPTH} from the start were most of a small
     * copy's time, zeroing memory nobody used.
     */
    static final int INITIAL_DEPTH = 4;

    /**
     * The largest integer magnitude in bits ({@code BigInteger.bitLength()}): from −2^511 to 2^511−1, room
     * for 256-bit hashes and keys, and small enough that arithmetic on a hostile value stays cheap.
     */
    public static final int MAX_BIG_INTEGER_BITS = 511;

    /** The longest bignum content decoding reads: 64 bytes hold every integer up to {@link #MAX_BIG_INTEGER_BITS} bits. */
    public static final int MAX_BIGNUM_BYTES = 64;

    /** A Java array cannot be longer than this (the JDK reserves a few header words). */
    private static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    /**
     * Each thread's copying walk, reused: a copy then allocates the copy and nothing of the walk's own (its sink,
     * writer and stacks were most of a small copy's bytes and time). Reset after every walk, failed or not.
     */
    private static final ThreadLocal<CopyWalk> COPY_WALKS = ThreadLocal.withInitial(CopyWalk::new);
    /** Each thread's encoding walk and its writer's array, reused the same way. */
    private static final ThreadLocal<EncodeWalk> ENCODE_WALKS = ThreadLocal.withInitial(EncodeWalk::new);

    /** A codec; share it. */
    public PlainCodec() {
    }

    /** The CBOR encoding of {@code value}, in a new array. */
    public byte[] encode(Object value) throws PlainValueException {
        EncodeWalk walk = encodeWalk();
        try {
            walk.write(value);
            return Arrays.copyOf(walk.out.bytes(), walk.out.length());
        } catch (OutOfMemoryError e) {
            throw outOfMemory("encoding the value", e);
        } finally {
            walk.release();
        }
    }

    /**
     * Encodes {@code value} into {@code buffer[offset, offset + length)} and returns the number of bytes
     * written from {@code offset}. Nothing is written outside that region, nor anything at all after a failure.
     *
     * @throws PlainValueException {@code OUT_OF_MEMORY} if the encoding is longer than {@code length};
     *         {@code INVALID_ARGUMENT} for a null buffer or a region outside it
     */
    public int encode(Object value, byte[] buffer, int offset, int length) throws PlainValueException {
        checkRegion(buffer, offset, length);
        EncodeWalk walk = encodeWalk();
        try {
            walk.out.limitTo(length);
            walk.write(value);
            int written = walk.out.length();
            System.arraycopy(walk.out.bytes(), 0, buffer, offset, written);
            return written;
        } finally {
            walk.release();
        }
    }

    /**
     * Encodes {@code value} into the {@code length} bytes of {@code segment} from {@code offset} — a C
     * caller's buffer — and returns the number of bytes written. Nothing is written outside that region, nor
     * anything at all after a failure.
     *
     * @throws PlainValueException {@code OUT_OF_MEMORY} if the encoding is longer than {@code length};
     *         {@code INVALID_ARGUMENT} for a null, read-only, closed or other-thread segment, or a region
     *         outside it
     */
    public long encode(Object value, MemorySegment segment, long offset, long length) throws PlainValueException {
        checkRegion(segment, offset, length);
        if (segment.isReadOnly()) {
            throw invalidArgument("the buffer segment is read-only");
        }
        EncodeWalk walk = encodeWalk();
        try {
            walk.out.limitTo(length);
            walk.write(value);
            int written = walk.out.length();
            try {
                MemorySegment.copy(walk.out.bytes(), 0, segment, ValueLayout.JAVA_BYTE, offset, written);
            } catch (RuntimeException e) { // its arena closed, or its owner changed, while the value was encoded
                throw invalidArgument("the buffer segment became inaccessible: " + e.getMessage());
            }
            return written;
        } finally {
            walk.release();
        }
    }

    /**
     * Appends the CBOR encoding of {@code value} to {@code out}, as one item: a handler's result written with
     * {@link CborOut}, or a part of one (a value inside a map the handler writes itself).
     *
     * @throws PlainValueException as {@link #encode(Object)}, and {@code OUT_OF_MEMORY} past {@code out}'s limit
     *         (nothing of the value is then written)
     */
    public void encode(Object value, CborOut out) throws PlainValueException {
        EncodeWalk walk = encodeWalk();
        try {
            walk.write(value);
            out.append(walk.out.bytes(), 0, walk.out.length());
        } catch (OutOfMemoryError e) {
            throw outOfMemory("encoding the value", e);
        } finally {
            walk.release();
        }
    }

    /**
     * Checks that {@code bytes[offset, offset + length)} is exactly one well-formed CBOR item of the plain subset
     * (what {@link #decode(byte[], int, int)} checks before it builds anything), building nothing.
     *
     * @throws PlainValueException {@code INVALID_ARGUMENT} naming the first problem and its byte offset from
     *         {@code offset}, or a region outside the array
     */
    public static void validate(byte[] bytes, int offset, int length) throws PlainValueException {
        checkRegion(bytes, offset, length);
        PlainCborValidator.validate(bytes, offset, length);
    }

    /** This thread's encoding walk, or a walk of its own for a value's code (a record accessor) encoding inside it. */
    private static EncodeWalk encodeWalk() {
        EncodeWalk walk = ENCODE_WALKS.get();
        if (walk.busy) {
            walk = new EncodeWalk();
        }
        walk.busy = true;
        return walk;
    }

    /** A thread's CBOR writer and the walk over it, reused; the writer keeps its array up to a bound. */
    private static final class EncodeWalk {
        final CborWriter out = new CborWriter();
        final PlainValueWriter writer = new PlainValueWriter(out);
        boolean busy;

        void write(Object value) throws PlainValueException {
            try {
                writer.write(value);
            } catch (PlainValueException e) {
                throw e;
            } catch (CborWriter.Refused e) {
                throw new PlainValueException(PlainValueFailure.OUT_OF_MEMORY, e.getMessage(), e);
            } catch (Exception | Error e) {
                throw walkFailed("encoding", writer, e);
            }
        }

        void release() {
            out.reset();
            writer.reset();
            busy = false;
        }
    }

    /**
     * A plain copy of {@code value}: what {@code decode(encode(value))} returns, built directly, with the length
     * the encoding would have had. The same values are accepted and refused as by {@link #encode(Object)}, with
     * the same failures; the copy shares nothing mutable with {@code value}.
     */
    public Copy copy(Object value) throws PlainValueException {
        Copy flat = FlatCopy.of(value);
        return flat != null ? flat : walkCopy(value);
    }

    /** {@link #copy} by the walk, whatever the value. */
    Copy walkCopy(Object value) throws PlainValueException {
        CopyWalk walk = COPY_WALKS.get();
        if (walk.busy) {
            walk = new CopyWalk(); // a value's own code (a record accessor) copying a value inside this walk
        }
        walk.busy = true;
        try {
            walk.writer.write(value);
            return new Copy(walk.sink.value(), walk.sink.encodedLength());
        } catch (PlainValueException e) {
            throw e;
        } catch (Exception | Error e) {
            throw walkFailed("copying", walk.writer, e);
        } finally {
            walk.sink.reset(); // holds nothing of the value once the copy is handed out, nor after a failure
            walk.writer.reset();
            walk.busy = false;
        }
    }

    private static final class CopyWalk {
        final CopySink sink = new CopySink();
        final PlainValueWriter writer = new PlainValueWriter(sink);
        /** In a walk now: a nested copy on this thread takes a walk of its own. */
        boolean busy;
    }

    /**
     * A plain copy and the length of its CBOR encoding.
     *
     * @param value         the copy, in decoding's normal form
     * @param encodedLength the bytes {@link #encode(Object)} would have written
     */
    public record Copy(Object value, long encodedLength) {
    }

    /** Decodes the one CBOR data item that is all of {@code bytes}. */
    public Object decode(byte[] bytes) throws PlainValueException {
        if (bytes == null) {
            throw invalidArgument("the input is null");
        }
        return decode(bytes, 0, bytes.length);
    }

    /**
     * Decodes the one CBOR data item that is all of {@code bytes[offset, offset + length)}.
     *
     * @throws PlainValueException {@code INVALID_ARGUMENT} for malformed or non-plain CBOR (the message
     *         gives the byte offset from {@code offset}), a null array or a region outside it
     */
    public Object decode(byte[] bytes, int offset, int length) throws PlainValueException {
        checkRegion(bytes, offset, length);
        try {
            PlainCborValidator.validate(bytes, offset, length);
            return PlainCborReader.read(bytes, offset);
        } catch (PlainValueException e) {
            throw e;
        } catch (OutOfMemoryError | StackOverflowError e) {
            throw outOfMemory("decoding the value", e);
        } catch (VirtualMachineError e) {
            throw e; // the JVM itself is failing; no status would be true
        } catch (RuntimeException | Error e) {
            // Not expected after validation; a gate must still answer with a status rather than throw.
            throw new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "decoding failed on this input: " + e, e);
        }
    }

    /**
     * Decodes the one CBOR data item that is all of the {@code length} bytes of {@code segment} from
     * {@code offset}. The bytes are copied once; the segment is not read after this returns.
     */
    public Object decode(MemorySegment segment, long offset, long length) throws PlainValueException {
        checkRegion(segment, offset, length);
        if (length > MAX_ARRAY_LENGTH) {
            throw invalidArgument("the input has " + length + " bytes; at most " + MAX_ARRAY_LENGTH + " can be decoded");
        }
        byte[] bytes;
        try {
            bytes = new byte[(int) length];
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset, bytes, 0, (int) length);
        } catch (OutOfMemoryError e) {
            throw outOfMemory("copying the input", e);
        } catch (RuntimeException e) {
            throw invalidArgument("the input segment became inaccessible: " + e.getMessage());
        }
        return decode(bytes, 0, bytes.length);
    }

    /**
     * A walk ended by something other than its own refusal: out of memory or stack, or the value's own code
     * failed — a collection's iterator or size(), a map's entrySet() (Exception, not RuntimeException: such code
     * can throw a checked exception it did not declare). Any other {@link VirtualMachineError} is rethrown: the
     * JVM itself is failing, and no status would be true.
     */
    private static PlainValueException walkFailed(String doing, PlainValueWriter writer, Throwable e) {
        if (e instanceof OutOfMemoryError || e instanceof StackOverflowError) {
            return outOfMemory(doing + " the value at " + where(writer), e);
        }
        if (e instanceof VirtualMachineError failing) {
            throw failing;
        }
        return new PlainValueException(PlainValueFailure.NOT_SERIALIZABLE, "encoding the value at " + where(writer)
                + " failed: " + e, e);
    }

    private static String where(PlainValueWriter writer) {
        return writer == null ? "$" : writer.path();
    }

    private static PlainValueException outOfMemory(String doing, Throwable e) {
        String what = e instanceof StackOverflowError ? "thread stack" : "memory";
        return new PlainValueException(PlainValueFailure.OUT_OF_MEMORY, "ran out of " + what + " " + doing, e);
    }

    private static void checkRegion(byte[] buffer, int offset, int length) throws PlainValueException {
        if (buffer == null) {
            throw invalidArgument("the buffer is null");
        }
        if (offset < 0 || length < 0 || offset > buffer.length - length) {
            throw invalidArgument("the region [" + offset + ", +" + length + ") is not inside the "
                    + buffer.length + "-byte buffer");
        }
    }

    private static void checkRegion(MemorySegment segment, long offset, long length) throws PlainValueException {
        if (segment == null) {
            throw invalidArgument("the buffer segment is null");
        }
        if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
            throw invalidArgument("the region [" + offset + ", +" + length + ") is not inside the "
                    + segment.byteSize() + "-byte segment");
        }
        if (!segment.scope().isAlive()) {
            throw invalidArgument("the buffer segment's arena is closed");
        }
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw invalidArgument("the buffer segment is confined to another thread");
        }
    }

    private static PlainValueException invalidArgument(String message) {
        return new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, message);
    }
}
