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
        int mark = writer.length();
        try {
            writer.writeNull();
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    public CborOut writeBoolean(boolean value) throws PlainValueException {
        int mark = writer.length();
        try {
            writer.writeBoolean(value);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    public CborOut writeLong(long value) throws PlainValueException {
        int mark = writer.length();
        try {
            writer.writeInteger(value);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    /** A double float (9 bytes), as {@link PlainCodec} writes a {@code Double}. */
    public CborOut writeDouble(double value) throws PlainValueException {
        int mark = writer.length();
        try {
            writer.writeDouble(value);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    /** A single float (5 bytes), as {@link PlainCodec} writes a {@code Float}. */
    public CborOut writeFloat(float value) throws PlainValueException {
        int mark = writer.length();
        try {
            writer.writeFloat(value);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
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
        int mark = writer.length();
        try {
            writer.writeChars(text);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    /** A byte string of {@code source[offset, offset + count)}. */
    public CborOut writeBytes(byte[] source, int offset, int count) throws PlainValueException {
        if (offset < 0 || count < 0 || offset > source.length - count) {
            throw new IllegalArgumentException("the region [" + offset + ", +" + count + ") is not inside the "
                    + source.length + "-byte array");
        }
        int mark = writer.length();
        try {
            writer.writeBytes(source, offset, count);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    /** An array's head: {@code count} items follow. */
    public CborOut writeArray(int count) throws PlainValueException {
        return head(count, true);
    }

    /** A map's head: {@code count} pairs follow, each a text key and its value. */
    public CborOut writeMap(int count) throws PlainValueException {
        return head(count, false);
    }

    private CborOut head(int count, boolean array) throws PlainValueException {
        if (count < 0) {
            throw new IllegalArgumentException("a count must be >= 0, got " + count);
        }
        int mark = writer.length();
        try {
            if (array) {
                writer.startList(null, count);
            } else {
                writer.startMap(null, count);
            }
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
        return this;
    }

    /** Appends whole items that are CBOR already ({@link PlainCodec#encode(Object, CborOut)}). */
    void append(byte[] source, int offset, int count) throws PlainValueException {
        int mark = writer.length();
        try {
            writer.writeEncoded(source, offset, count);
        } catch (IOException e) {
            writer.truncate(mark); // a string's head may be written before its bytes are refused
            throw refused(e);
        }
    }

    private static PlainValueException refused(IOException e) {
        return new PlainValueException(PlainValueFailure.OUT_OF_MEMORY, e.getMessage(), e);
    }
}
