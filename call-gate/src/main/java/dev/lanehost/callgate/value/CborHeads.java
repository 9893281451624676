package dev.lanehost.callgate.value;

/**
 * The byte-level half of {@link CborIn}: the region it reads, and the heads, arguments and string lengths every read
 * decodes, each checked against the region's end. A failure names the byte offset from the region's start
 * ({@code INVALID_ARGUMENT}) and leaves the position at the item's start, so a read that fails reads nothing.
 */
abstract sealed class CborHeads permits CborIn {
    static final int INDEFINITE_INFO = 31;
    static final int BREAK = 0xff;

    byte[] in;
    int start;
    int end;
    int position;

    /** The type of the next item, without reading it. */
    public abstract CborType next();

    final int containerHead(int major, String what) throws PlainValueException {
        int at = position;
        int initial = head(at);
        if (initial >>> 5 != major) {
            throw mismatch(at, what);
        }
        if ((initial & 0x1f) == INDEFINITE_INFO) {
            return CborIn.INDEFINITE;
        }
        long count = argument(initial, at);
        if (count < 0 || count > end - position) { // every item takes a byte at least
            position = at;
            throw invalid(at, what.substring(what.indexOf(' ') + 1) + " of " + Long.toUnsignedString(count)
                    + " items cannot fit in the " + (end - position) + " bytes left");
        }
        return (int) count;
    }

    /** The head byte at {@code at}, read. */
    final int head(int at) throws PlainValueException {
        if (at >= end) {
            throw invalid(at, "no item is left in the region");
        }
        position = at + 1;
        return in[at] & 0xff;
    }

    /** A definite string's length, with its head read; it must fit in the region. */
    final int stringLength(int initial, int at) throws PlainValueException {
        long length = argument(initial, at);
        if (length < 0 || length > end - position) {
            position = at;
            throw invalid(at, "the string's " + Long.toUnsignedString(length) + " bytes run past the region's end");
        }
        return (int) length;
    }

    /** An indefinite string's total length: its chunks summed, the position left where it was. */
    final int stringLength(int at) throws PlainValueException {
        position = at;
        int total = 0;
        try {
            int major = head(at) >>> 5;
            while (true) {
                int chunkAt = position;
                int chunk = head(chunkAt);
                if (chunk == BREAK) {
                    return total;
                }
                if (chunk >>> 5 != major || (chunk & 0x1f) == INDEFINITE_INFO) {
                    throw invalid(chunkAt, "a chunk of an indefinite-length string must be a definite string of its type");
                }
                int length = stringLength(chunk, chunkAt);
                total += length;
                position += length;
            }
        } finally {
            position = at;
        }
    }

    /** Reads an indefinite string's chunks (already measured) into {@code target} from {@code offset}, or past them. */
    final void readChunks(int at, byte[] target, int offset) throws PlainValueException {
        head(at);
        int filled = offset;
        for (int chunk = head(position); chunk != BREAK; chunk = head(position)) {
            int length = (int) argument(chunk, position - 1);
            if (target != null) {
                System.arraycopy(in, position, target, filled, length);
            }
            filled += length;
            position += length;
        }
    }

    /** The argument of a head whose first byte has been read: unsigned, so 2^63 and above read as negative. */
    final long argument(int initial, int at) throws PlainValueException {
        int info = initial & 0x1f;
        return switch (info) {
            case 24 -> fixed(1, at);
            case 25 -> fixed(2, at);
            case 26 -> fixed(4, at);
            case 27 -> fixed(8, at);
            case 28, 29, 30, INDEFINITE_INFO -> {
                position = at;
                throw invalid(at, "the head 0x" + Integer.toHexString(initial) + " has no argument of its own here");
            }
            default -> info;
        };
    }

    final long fixed(int size, int at) throws PlainValueException {
        if (size > end - position) {
            position = at;
            throw invalid(at, "the head runs past the region's end");
        }
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = value << 8 | (in[position++] & 0xff);
        }
        return value;
    }

    static boolean utf8Equals(byte[] bytes, int from, int length, CharSequence expected) {
        int at = from;
        int to = from + length;
        int chars = expected.length();
        for (int i = 0; i < chars; i++) {
            int c = expected.charAt(i);
            if (Character.isHighSurrogate((char) c) && i + 1 < chars) {
                c = Character.toCodePoint((char) c, expected.charAt(++i));
            }
            int size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
            if (to - at < size) {
                return false;
            }
            if (size == 1) {
                if (bytes[at++] != c) {
                    return false;
                }
                continue;
            }
            int lead = size == 2 ? 0xc0 | c >> 6 : size == 3 ? 0xe0 | c >> 12 : 0xf0 | c >> 18;
            if ((bytes[at++] & 0xff) != lead) {
                return false;
            }
            for (int shift = (size - 2) * 6; shift >= 0; shift -= 6) {
                if ((bytes[at++] & 0xff) != (0x80 | c >> shift & 0x3f)) {
                    return false;
                }
            }
        }
        return at == to;
    }

    final PlainValueException mismatch(int at, String expected) {
        position = at;
        return invalid(at, "expected " + expected + ", found " + describe(next()));
    }

    private static String describe(CborType type) {
        return switch (type) {
            case INTEGER -> "an integer";
            case BIG_INTEGER -> "a bignum";
            case FLOAT -> "a float";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case TEXT -> "a text string";
            case BYTES -> "a byte string";
            case ARRAY -> "an array";
            case MAP -> "a map";
            case BREAK -> "a break";
            case OTHER -> "a value plain values do not use";
            case END -> "the end of the region";
        };
    }

    final PlainValueException invalid(int at, String problem) {
        return new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "CBOR at byte " + (at - start) + ": " + problem);
    }
}
