package dev.lanehost.callgate.value;

import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * A walk written as CBOR (RFC 8949) into a growable array that one thread reuses from call to call: every string and
 * container definite-length, every integer and length in its shortest head (preferred serialization), floats at the
 * width the value has (single for {@code float}, double for {@code double}), integers outside 64 bits signed as
 * major type 0 or 1 while they fit its 8-byte argument and as tag 2 or 3 over the shortest magnitude beyond.
 *
 * <p>A write past {@link #limit} is refused whole ({@link Refused}, {@code OUT_OF_MEMORY}) before anything of it is
 * written, so an encoding bound for a caller's buffer never grows past that buffer's size.
 */
final class CborWriter implements PlainSink {
    /** An array a thread keeps between walks; a walk that grew past this gives its array up when it ends. */
    static final int KEPT_CAPACITY = 64 << 10;
    private static final int INITIAL_CAPACITY = 256;
    private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    private byte[] bytes = new byte[INITIAL_CAPACITY];
    private int length;
    private long limit = MAX_ARRAY_LENGTH;
    private long callerCapacity = -1;
    /** What the limit is, for a refusal's sentence; null: the caller's buffer. */
    private String limitName;

    /** The encoding written so far: {@code bytes()[0, length())}. */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    /** Forgets what was written past {@code mark}, a length this writer had. */
    void truncate(int mark) {
        length = mark;
    }

    /** Bytes that are CBOR already (a whole item, encoded elsewhere), as they are. */
    void writeEncoded(byte[] source, int offset, int count) throws IOException {
        reserve(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    /** The next walk writes at most {@code capacity} bytes, the size of the caller's buffer it is bound for. */
    void limitTo(long capacity) {
        limitTo(capacity, null);
    }

    /**
     * The next walk writes at most {@code capacity} bytes; {@code whose} says in a refusal where the limit comes
     * from, or is null for the caller's buffer.
     */
    void limitTo(long capacity, String whose) {
        limit = Math.min(capacity, MAX_ARRAY_LENGTH);
        callerCapacity = capacity;
        limitName = whose;
    }

    /** Ready for the next walk, holding nothing of the last one past a large array. */
    void reset() {
        length = 0;
        limit = MAX_ARRAY_LENGTH;
        callerCapacity = -1;
        limitName = null;
        if (bytes.length > KEPT_CAPACITY) {
            bytes = new byte[INITIAL_CAPACITY];
        }
    }

    @Override
    public void writeNull() throws IOException {
        put(0xf6);
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        put(value ? 0xf5 : 0xf4);
    }

    @Override
    public void writeInteger(long value) throws IOException {
        if (value >= 0) {
            head(0, value);
        } else {
            head(1, ~value); // -1 - value
        }
    }

    @Override
    public void writeBigInteger(BigInteger value) throws IOException {
        if (value.bitLength() == Long.SIZE) {
            // 2^63 .. 2^64-1 and -2^64 .. -2^63-1 fit a full 8-byte argument, which RFC 8949 preferred
            // serialization takes over a bignum: what a C uint64_t sends, and what C's major type 1 reads.
            if (value.signum() > 0) {
                head(0, value.longValue());
            } else {
                head(1, value.not().longValue()); // -1 - n, unsigned 2^63 .. 2^64-1
            }
            return;
        }
        boolean negative = value.signum() < 0;
        BigInteger magnitude = negative ? value.not() : value; // not() is -1 - n
        byte[] twosComplement = magnitude.toByteArray();
        int start = twosComplement[0] == 0 ? 1 : 0; // the sign byte; a bignum's magnitude is never 0, so one byte remains
        head(6, negative ? 3 : 2);
        writeBytes(twosComplement, start, twosComplement.length - start);
    }

    @Override
    public void writeFloat(float value) throws IOException {
        reserve(5);
        bytes[length++] = (byte) 0xfa;
        putBigEndian(Float.floatToRawIntBits(value) & 0xffff_ffffL, 4);
    }

    @Override
    public void writeDouble(double value) throws IOException {
        reserve(9);
        bytes[length++] = (byte) 0xfb;
        putBigEndian(Double.doubleToRawLongBits(value), 8);
    }

    @Override
    public void writeText(String text) throws IOException {
        writeChars(text);
    }

    /** A text string from any characters, as {@link #writeText(String)} writes one; unpaired surrogates are the caller's to refuse. */
    void writeChars(CharSequence text) throws IOException {
        int chars = text.length();
        long utf8 = chars;
        for (int i = 0; i < chars; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                // 2 bytes below U+0800; 3 for the rest of the BMP; a surrogate pair's 4 are 2 + 2 (the walk refused
                // unpaired surrogates).
                utf8 += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        head(3, utf8);
        reserve(utf8);
        int at = length;
        byte[] out = bytes;
        for (int i = 0; i < chars; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xc0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3f);
            } else if (Character.isHighSurrogate(c)) {
                int code = Character.toCodePoint(c, text.charAt(++i));
                out[at++] = (byte) (0xf0 | code >> 18);
                out[at++] = (byte) (0x80 | code >> 12 & 0x3f);
                out[at++] = (byte) (0x80 | code >> 6 & 0x3f);
                out[at++] = (byte) (0x80 | code & 0x3f);
            } else {
                out[at++] = (byte) (0xe0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3f);
                out[at++] = (byte) (0x80 | c & 0x3f);
            }
        }
        length = at;
    }

    @Override
    public void writeBytes(byte[] source, int offset, int count) throws IOException {
        head(2, count);
        reserve(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    @Override
    public void writeKey(String key, byte[] encodedKey) throws IOException {
        if (encodedKey == null) {
            writeText(key);
            return;
        }
        reserve(encodedKey.length);
        System.arraycopy(encodedKey, 0, bytes, length, encodedKey.length);
        length += encodedKey.length;
    }

    @Override
    public void startList(Object list, int size) throws IOException {
        head(4, size);
    }

    @Override
    public void endList() {
    }

    @Override
    public void startMap(Object map, int size) throws IOException {
        head(5, size);
    }

    @Override
    public void endMap() {
    }

    /** A text string item, head and UTF-8, as {@link #writeKey} writes it: for keys known ahead (record components). */
    static byte[] encodeKey(String key) {
        CborWriter writer = new CborWriter();
        try {
            writer.writeText(key);
        } catch (IOException e) {
            throw new IllegalStateException("a key of " + key.length() + " characters did not fit", e);
        }
        return Arrays.copyOf(writer.bytes, writer.length);
    }

    /** A head: the major type and its argument, unsigned, in the fewest bytes. */
    private void head(int major, long argument) throws IOException {
        int type = major << 5;
        if (argument >= 0 && argument < 24) {
            put(type | (int) argument);
        } else if (argument >= 0 && argument <= 0xff) {
            reserve(2);
            bytes[length++] = (byte) (type | 24);
            bytes[length++] = (byte) argument;
        } else if (argument >= 0 && argument <= 0xffff) {
            reserve(3);
            bytes[length++] = (byte) (type | 25);
            putBigEndian(argument, 2);
        } else if (argument >= 0 && argument <= 0xffff_ffffL) {
            reserve(5);
            bytes[length++] = (byte) (type | 26);
            putBigEndian(argument, 4);
        } else {
            reserve(9);
            bytes[length++] = (byte) (type | 27);
            putBigEndian(argument, 8);
        }
    }

    private void put(int b) throws IOException {
        reserve(1);
        bytes[length++] = (byte) b;
    }

    private void putBigEndian(long value, int size) {
        for (int shift = (size - 1) * 8; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (value >>> shift);
        }
    }

    /** Room for {@code count} more bytes, within the limit. */
    private void reserve(long count) throws Refused {
        long needed = length + count;
        if (needed > limit) {
            throw new Refused(callerCapacity >= 0
                    ? limitName != null ? "the encoded value is longer than its limit of " + callerCapacity + " bytes (" + limitName + ")"
                            : "the encoded value does not fit in the caller's " + callerCapacity + "-byte buffer"
                    : "the encoded value is longer than " + MAX_ARRAY_LENGTH + " bytes, the longest a Java array holds");
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Math.max(needed, 2L * bytes.length), MAX_ARRAY_LENGTH));
        }
    }

    /**
     * A write the limit refused. An {@link IOException} because the walk's sink methods declare it; the codec turns
     * it into {@code OUT_OF_MEMORY}.
     */
    static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }
}
