package dev.lanehost.callgate.value;

import java.io.IOException;

/**
 * Writes CBOR items one after another into an array it owns and keeps from use to use: a
 * {@link dev.lanehost.callgate.CborCallHandler}'s result, or any encoding a caller builds without objects. Heads and
 * lengths take their shortest form, strings are definite-length, as {@link PlainCodec} writes them; writing a number,
 * a boolean, a head or a string allocates nothing once the array has grown to the size the writes need.
 *
 * <pre>{@code
 * out.writeMap(2);                        // {"frame": 7, "level": 0.25}
 * out.writeText("frame").writeLong(7);
 * out.writeText("level").writeDouble(0.25);
 * }</pre>
 *
 * <p>A container's head says how many items follow; writing them is the caller's part (a gate checks that its
 * handler wrote exactly one whole item, and answers {@code NOT_SERIALIZABLE} if not). A write past the limit throws
 * {@link PlainValueException} ({@code OUT_OF_MEMORY}) and writes nothing of itself. One writer serves one thread at a
 * time.
 */
public final class CborOut {
    // The writes, for guarded.
    private static final int NULL = 0;
    private static final int BOOLEAN = 1;
    private static final int INTEGER = 2;
    private static final int DOUBLE = 3;
    private static final int FLOAT = 4;
    private static final int TEXT = 5;
    private static final int BYTES = 6;
    private static final int ARRAY = 7;
    private static final int MAP = 8;
    private static final int ENCODED = 9;

    private final CborWriter writer = new CborWriter();

    /** An empty writer with no limit but a Java array's. */
    public CborOut() {
    }

    /** The bytes written so far are {@code array()[0, length())}; the array is this writer's and changes as it grows. */
    public byte[] array() {
        return writer.bytes();
    }

    public int length() {
        return writer.length();
    }

    /** Forgets what was written (a large array is given up) and lifts the limit. */
    public CborOut clear() {
        writer.reset();
        return this;
    }

    /** From now on the writes stop at {@code maxBytes} in all. */
    public CborOut limit(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("the limit must be >= 0, got " + maxBytes);
        }
        writer.limitTo(maxBytes, "CborOut.limit: for a gate's handler, the gate's maxResultBytes");
        return this;
    }

    public CborOut writeNull() throws PlainValueException {
        return guarded(NULL, 0, 0, null, 0, 0);
    }

    public CborOut writeBoolean(boolean value) throws PlainValueException {
        return guarded(BOOLEAN, value ? 1 : 0, 0, null, 0, 0);
    }

    public CborOut writeLong(long value) throws PlainValueException {
        return guarded(INTEGER, value, 0, null, 0, 0);
    }

    /** A double float (9 bytes), as {@link PlainCodec} writes a {@code Double}. */
    public CborOut writeDouble(double value) throws PlainValueException {
        return guarded(DOUBLE, 0, value, null, 0, 0);
    }

    /** A single float (5 bytes), as {@link PlainCodec} writes a {@code Float}. */
    public CborOut writeFloat(float value) throws PlainValueException {
        return guarded(FLOAT, Float.floatToRawIntBits(value), 0, null, 0, 0); // its bits: a NaN's payload kept
    }

    /**
     * A text string in UTF-8: a {@code String}, or a {@code StringBuilder} a caller reuses.
     *
     * @throws PlainValueException {@code NOT_SERIALIZABLE} for an unpaired surrogate, which UTF-8 cannot hold
     */
    public CborOut writeText(CharSequence text) throws PlainValueException {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    throw new PlainValueException(PlainValueFailure.NOT_SERIALIZABLE,
                            "the text has an unpaired surrogate at index " + i + ", which UTF-8 cannot hold");
                }
            }
        }
        return guarded(TEXT, 0, 0, text, 0, 0);
    }

    /** A byte string of {@code source[offset, offset + count)}. */
    public CborOut writeBytes(byte[] source, int offset, int count) throws PlainValueException {
        if (offset < 0 || count < 0 || offset > source.length - count) {
            throw new IllegalArgumentException("the region [" + offset + ", +" + count + ") is not inside the "
                    + source.length + "-byte array");
        }
        return guarded(BYTES, 0, 0, source, offset, count);
    }

    /** An array's head: {@code count} items follow. */
    public CborOut writeArray(int count) throws PlainValueException {
        return guarded(ARRAY, 0, 0, null, 0, checkedCount(count));
    }

    /** A map's head: {@code count} pairs follow, each a text key and its value. */
    public CborOut writeMap(int count) throws PlainValueException {
        return guarded(MAP, 0, 0, null, 0, checkedCount(count));
    }

    private static int checkedCount(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("a count must be >= 0, got " + count);
        }
        return count;
    }

    /** Appends whole items that are CBOR already ({@link PlainCodec#encode(Object, CborOut)}). */
    void append(byte[] source, int offset, int count) throws PlainValueException {
        guarded(ENCODED, 0, 0, source, offset, count);
    }

    /**
     * The one way a write reaches the writer: {@code kind} says which write, the other arguments are its operands
     * (each write's own, the rest unused; a constant kind folds the switch away where the write is inlined). A write
     * the limit refuses writes nothing of itself: the writer is cut back to where it was.
     */
    private CborOut guarded(int kind, long number, double real, Object source, int offset, int count) throws PlainValueException {
        int mark = writer.length();
        try {
            switch (kind) {
                case NULL -> writer.writeNull();
                case BOOLEAN -> writer.writeBoolean(number != 0);
                case INTEGER -> writer.writeInteger(number);
                case DOUBLE -> writer.writeDouble(real);
                case FLOAT -> writer.writeFloat(Float.intBitsToFloat((int) number));
                case TEXT -> writer.writeChars((CharSequence) source);
                case BYTES -> writer.writeBytes((byte[]) source, offset, count);
                case ARRAY -> writer.startList(null, count);
                case MAP -> writer.startMap(null, count);
                default -> writer.writeEncoded((byte[]) source, offset, count);
            }
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    private static PlainValueException refused(IOException e) {
        return new PlainValueException(PlainValueFailure.OUT_OF_MEMORY, e.getMessage(), e);
    }
}
