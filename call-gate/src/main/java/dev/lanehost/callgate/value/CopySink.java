package dev.lanehost.callgate.value;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A walk built straight into its plain form — what decoding its CBOR would give: {@code Long} (a
 * {@code BigInteger} only outside 64 bits), {@code Double} (a float widened), {@code String}, a fresh
 * {@code byte[]}, {@code ArrayList}, {@code LinkedHashMap} — and the length that CBOR would have, counted as
 * the walk goes, so a size limit needs no bytes either. A Java caller's arguments and results are copied this
 * way: a value crosses a gate as a snapshot, without an encoder or a parser in between.
 */
final class CopySink implements PlainSink {
    /** Open containers, innermost last: an ArrayList, or a LinkedHashMap with the key waiting for its value. */
    private Object[] open = new Object[PlainCodec.INITIAL_DEPTH];
    private String[] keys = new String[PlainCodec.INITIAL_DEPTH];
    private int depth;
    private Object top;
    private long encodedLength;

    /** Ready for another walk: empty stacks, no copy, no length. A whole walk leaves the stacks empty already. */
    void reset() {
        if (depth != 0) { // a failed walk
            Arrays.fill(open, null);
            Arrays.fill(keys, null);
            depth = 0;
        }
        top = null;
        encodedLength = 0;
    }

    /** The copy, once the walk has written one whole value. */
    Object value() {
        return top;
    }

    /** The length of the value's CBOR encoding. */
    long encodedLength() {
        return encodedLength;
    }

    @Override
    public void writeNull() {
        encodedLength += 1;
        add(null);
    }

    @Override
    public void writeBoolean(boolean value) {
        encodedLength += 1;
        add(value);
    }

    @Override
    public void writeInteger(long value) {
        encodedLength += head(value < 0 ? -1 - value : value);
        add(value);
    }

    @Override
    public void writeBigInteger(BigInteger value) {
        if (value.bitLength() == Long.SIZE) {
            encodedLength += 9; // major type 0 or 1, eight bytes
        } else {
            // A tag (one byte: 2 or 3) over the magnitude's shortest byte string.
            int magnitudeBytes = ((value.signum() < 0 ? value.not() : value).bitLength() + 7) / 8;
            encodedLength += 1 + head(magnitudeBytes) + magnitudeBytes;
        }
        add(value.getClass() == BigInteger.class ? value : new BigInteger(value.toByteArray()));
    }

    @Override
    public void writeFloat(float value) {
        encodedLength += 5; // single precision, widened exactly when decoded
        add((double) value);
    }

    @Override
    public void writeDouble(double value) {
        encodedLength += 9;
        add(value);
    }

    @Override
    public void writeText(String text) {
        encodedLength += utf8Item(text);
        add(text);
    }

    @Override
    public void writeBytes(byte[] bytes, int offset, int length) {
        encodedLength += head(length) + length;
        add(Arrays.copyOfRange(bytes, offset, offset + length));
    }

    @Override
    public void writeKey(String key, byte[] encodedKey) {
        encodedLength += utf8Item(key);
        keys[depth - 1] = key;
    }

    @Override
    public void startList(Object list, int size) {
        encodedLength += head(size);
        open(new ArrayList<>(size));
    }

    @Override
    public void endList() {
        close();
    }

    @Override
    public void startMap(Object map, int size) {
        encodedLength += head(size);
        open(new LinkedHashMap<>(Math.max(4, (int) (size / 0.75f) + 1)));
    }

    @Override
    public void endMap() {
        close();
    }

    private void open(Object container) {
        add(container);
        if (depth == open.length) { // the writer stops a walk at MAX_DEPTH containers, before this
            open = Arrays.copyOf(open, 2 * depth);
            keys = Arrays.copyOf(keys, 2 * depth);
        }
        open[depth++] = container;
    }

    private void close() {
        open[--depth] = null;
        keys[depth] = null; // the key belongs to the caller's value
    }

    @SuppressWarnings("unchecked")
    private void add(Object value) {
        if (depth == 0) {
            top = value;
            return;
        }
        Object container = open[depth - 1];
        if (container instanceof List<?> list) {
            ((List<Object>) list).add(value);
        } else {
            ((Map<String, Object>) container).put(keys[depth - 1], value);
        }
    }

    /** Bytes of a CBOR head carrying {@code argument}: 1, 2, 3, 5 or 9. */
    static int head(long argument) {
        if (argument < 24) {
            return 1;
        }
        if (argument < 0x100) {
            return 2;
        }
        if (argument < 0x10000) {
            return 3;
        }
        return argument < 0x1_0000_0000L ? 5 : 9;
    }

    /** Bytes of a definite-length text string: its head and its UTF-8 (no unpaired surrogates here). */
    static long utf8Item(String text) {
        long utf8 = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                utf8 += 1;
            } else if (c < 0x800) {
                utf8 += 2;
            } else if (Character.isHighSurrogate(c)) {
                utf8 += 4; // with the low surrogate that follows (the walk checked the pair)
                i++;
            } else {
                utf8 += 3;
            }
        }
        return head(utf8) + utf8;
    }
}
