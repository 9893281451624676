package dev.lanehost.callgate.value;

import java.nio.charset.StandardCharsets;

/**
 * Reads CBOR items where they lie, one after another, without building objects: a gate's arguments as a
 * {@link dev.lanehost.callgate.CborCallHandler} receives them, or any byte region. Reading a number, a boolean, a
 * container's size or comparing a text allocates nothing; only {@link #readText()} makes a {@code String}.
 *
 * <pre>{@code
 * int entries = in.readMap();                 // {"gain": 0.5, "voice": 3}
 * for (int i = 0; i < entries; i++) {
 *     if (in.nextTextIs("gain")) { in.skip(); gain = in.readDouble(); }
 *     else if (in.nextTextIs("voice")) { in.skip(); voice = in.readInt(); }
 *     else { in.skip(); in.skip(); }      // a key this handler does not know, and its value
 * }
 * }</pre>
 *
 * <p>Every read checks what it reads: an item of another type than asked, a value out of the asked range, or a head
 * that runs past the region throws {@link PlainValueException} ({@code INVALID_ARGUMENT}) naming the byte offset from
 * the region's start, and moves nothing. A gate validates its arguments whole before they are queued
 * ({@link PlainCodec#validate}), so a handler meets only well-formed input; what it can still meet is a type or a
 * range other than it expects. Containers may be definite-length ({@link #readArray} returns the count) or
 * indefinite-length ({@link #INDEFINITE}: read items until {@link #readBreak} returns true). A map read this way may
 * hold a key twice (the gate's decoding to values refuses that; reading in place leaves it to the handler).
 *
 * <p>One reader serves one thread at a time; {@link #wrap} aims it at the next region.
 */
public final class CborIn extends CborHeads {
    /** What {@link #readArray} and {@link #readMap} return for an indefinite-length container. */
    public static final int INDEFINITE = -1;
    /** A reader aimed at nothing yet. */
    public CborIn() {
    }

    /** Aims this reader at {@code bytes[offset, offset + length)}; reads check what they read, nothing is checked now. */
    public CborIn wrap(byte[] bytes, int offset, int length) {
        if (bytes == null || offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IllegalArgumentException("the region [" + offset + ", +" + length + ") is not inside the "
                    + (bytes == null ? "null" : bytes.length + "-byte") + " array");
        }
        in = bytes;
        start = offset;
        end = offset + length;
        position = offset;
        return this;
    }

    /** Bytes read so far from the region's start. */
    public int position() {
        return position - start;
    }

    /** Whether bytes are left: another item, or the break of an open container. */
    public boolean hasRemaining() {
        return position < end;
    }

    /** The type of the next item, without reading it. */
    @Override
    public CborType next() {
        if (position >= end) {
            return CborType.END;
        }
        int initial = in[position] & 0xff;
        int info = initial & 0x1f;
        return switch (initial >>> 5) {
            case 0, 1 -> CborType.INTEGER;
            case 2 -> CborType.BYTES;
            case 3 -> CborType.TEXT;
            case 4 -> CborType.ARRAY;
            case 5 -> CborType.MAP;
            case 6 -> info == 2 || info == 3 ? CborType.BIG_INTEGER : CborType.OTHER;
            default -> switch (info) {
                case 20, 21 -> CborType.BOOLEAN;
                case 22 -> CborType.NULL;
                case 25, 26, 27 -> CborType.FLOAT;
                case INDEFINITE_INFO -> CborType.BREAK;
                default -> CborType.OTHER;
            };
        };
    }

    /** An integer in 64 bits signed. */
    public long readLong() throws PlainValueException {
        int at = position;
        int initial = head(at);
        int major = initial >>> 5;
        if (major > 1) {
            throw mismatch(at, "an integer");
        }
        long argument = argument(initial, at);
        if (argument < 0) { // unsigned 2^63 and above
            throw invalid(at, "the integer does not fit in 64 bits signed");
        }
        return major == 0 ? argument : -1 - argument;
    }

    /** An integer in 32 bits signed. */
    public int readInt() throws PlainValueException {
        int at = position;
        long value = readLong();
        if (value != (int) value) {
            position = at;
            throw invalid(at, "the integer " + value + " does not fit in 32 bits signed");
        }
        return (int) value;
    }

    /** A number: a half, single or double float, or an integer (exactly when it has at most 53 bits). */
    public double readDouble() throws PlainValueException {
        int at = position;
        int initial = head(at);
        if (initial >>> 5 <= 1) {
            position = at;
            return readLong();
        }
        double value = switch (initial) {
            case 0xf9 -> Float.float16ToFloat((short) fixed(2, at));
            case 0xfa -> Float.intBitsToFloat((int) fixed(4, at));
            case 0xfb -> Double.longBitsToDouble(fixed(8, at));
            default -> throw mismatch(at, "a number");
        };
        return value;
    }

    public boolean readBoolean() throws PlainValueException {
        int at = position;
        int initial = head(at);
        if (initial != 0xf4 && initial != 0xf5) {
            throw mismatch(at, "a boolean");
        }
        return initial == 0xf5;
    }

    /** {@return true if the next item is null, and reads it; false, reading nothing, if it is not} */
    public boolean readNull() {
        if (position < end && (in[position] & 0xff) == 0xf6) {
            position++;
            return true;
        }
        return false;
    }

    /** An array's head: its element count, or {@link #INDEFINITE} (then items until {@link #readBreak}). */
    public int readArray() throws PlainValueException {
        return containerHead(4, "an array");
    }

    /** A map's head: its count of key-value pairs, or {@link #INDEFINITE} (then pairs until {@link #readBreak}). */
    public int readMap() throws PlainValueException {
        return containerHead(5, "a map");
    }

    /** {@return whether the break ending an indefinite-length container comes next, and reads it if it does} */
    public boolean readBreak() {
        if (position < end && (in[position] & 0xff) == BREAK) {
            position++;
            return true;
        }
        return false;
    }

    /** A text string as a new {@code String}. */
    public String readText() throws PlainValueException {
        int at = position;
        int initial = head(at);
        if (initial >>> 5 != 3) {
            throw mismatch(at, "a text string");
        }
        if ((initial & 0x1f) != INDEFINITE_INFO) {
            int length = stringLength(initial, at);
            String text = new String(in, position, length, StandardCharsets.UTF_8);
            position += length;
            return text;
        }
        position = at;
        byte[] joined = new byte[stringLength(at)];
        readChunks(at, joined, 0);
        return new String(joined, StandardCharsets.UTF_8);
    }

    /**
     * Whether the next item is a text string equal to {@code expected}, compared as UTF-8 without making a string
     * and without reading anything: follow with {@link #skip} to read past it.
     */
    public boolean nextTextIs(CharSequence expected) throws PlainValueException {
        if (position >= end || (in[position] & 0xe0) != 0x60) {
            return false;
        }
        int at = position;
        try {
            int initial = head(at);
            if ((initial & 0x1f) == INDEFINITE_INFO) {
                byte[] joined = new byte[stringLength(at)]; // rare: an indefinite text from a streaming encoder
                position = at;
                readChunks(at, joined, 0);
                return utf8Equals(joined, 0, joined.length, expected);
            }
            int length = stringLength(initial, at);
            return utf8Equals(in, position, length, expected);
        } finally {
            position = at;
        }
    }

    /** The length in bytes of the next item, a byte or text string (an indefinite one's chunks summed), without reading it. */
    public int nextStringLength() throws PlainValueException {
        int at = position;
        try {
            int initial = head(at);
            int major = initial >>> 5;
            if (major != 2 && major != 3) {
                throw mismatch(at, "a byte or text string");
            }
            return (initial & 0x1f) == INDEFINITE_INFO ? stringLength(at) : stringLength(initial, at);
        } finally {
            position = at;
        }
    }

    /**
     * {@return the count of bytes copied} Copies a byte string's contents into {@code target} from {@code offset}.
     *
     * @throws PlainValueException {@code INVALID_ARGUMENT} if it is not a byte string or does not fit (nothing read)
     */
    public int readBytes(byte[] target, int offset) throws PlainValueException {
        int at = position;
        int length = nextStringLength();
        if ((in[at] & 0xe0) != 0x40) {
            throw mismatch(at, "a byte string");
        }
        if (offset < 0 || offset > target.length - length) {
            throw invalid(at, "the " + length + "-byte string does not fit in the target from offset " + offset
                    + " (" + target.length + " bytes)");
        }
        int initial = head(at);
        if ((initial & 0x1f) == INDEFINITE_INFO) {
            position = at;
            readChunks(at, target, offset);
        } else {
            stringLength(initial, at);
            System.arraycopy(in, position, target, offset, length);
            position += length;
        }
        return length;
    }

    /** Reads past the next item whole, a container with everything in it. */
    public void skip() throws PlainValueException {
        int at = position;
        try {
            skipItem(0);
        } catch (PlainValueException e) {
            position = at;
            throw e;
        }
    }

    private void skipItem(int depth) throws PlainValueException {
        if (depth > PlainCodec.MAX_DEPTH) {
            throw invalid(position, "nesting deeper than " + PlainCodec.MAX_DEPTH);
        }
        int at = position;
        int initial = head(at);
        int info = initial & 0x1f;
        switch (initial >>> 5) {
            case 0, 1 -> argument(initial, at);
            case 2, 3 -> {
                if (info == INDEFINITE_INFO) {
                    position = at;
                    stringLength(at);
                    readChunks(at, null, 0);
                } else {
                    position += stringLength(initial, at);
                }
            }
            case 4, 5 -> {
                int per = initial >>> 5 == 5 ? 2 : 1;
                if (info == INDEFINITE_INFO) {
                    while (!readBreak()) {
                        skipItem(depth + 1);
                    }
                } else {
                    long items = argument(initial, at) * per;
                    for (long i = 0; i < items; i++) {
                        skipItem(depth + 1);
                    }
                }
            }
            case 6 -> {
                argument(initial, at);
                skipItem(depth + 1);
            }
            default -> {
                switch (info) {
                    case 24 -> fixed(1, at);
                    case 25 -> fixed(2, at);
                    case 26 -> fixed(4, at);
                    case 27 -> fixed(8, at);
                    case INDEFINITE_INFO -> throw invalid(at, "a break where an item was expected");
                    default -> { }
                }
            }
        }
    }
}
