package dev.lanehost.callgate.value;

/**
 * Checks that a byte region holds exactly one well-formed CBOR data item of the plain subset, before any value is
 * built from it. It reads heads, and string contents only to check that text is UTF-8.
 *
 * <p>Why it is a pass of its own: {@link PlainCborReader} then builds values without checking anything but what
 * only values show, and nothing is built from input that turns out to be malformed further on. Every declared
 * length fits in the input after this check, so nothing the reader allocates is larger than the input itself.
 *
 * <p>What it accepts (RFC 8949 section numbers in brackets):
 * <ol>
 *   <li>integers (major types 0 and 1) with 1-, 2-, 4- or 8-byte arguments [3.1];</li>
 *   <li>byte and text strings, definite or indefinite-length; an indefinite one is definite-length chunks
 *       of its own major type ended by a break [3.2.3]. Text, map keys included, is valid UTF-8 [3.1]:
 *       Unicode's well-formed byte sequences (no overlong forms, surrogates or code points past U+10FFFF),
 *       each chunk on its own;</li>
 *   <li>arrays and maps, definite or indefinite-length, nested at most {@link PlainCodec#MAX_DEPTH} deep,
 *       whose map keys are text strings;</li>
 *   <li>tags 2 and 3 (bignums) on a definite-length byte string of at most {@link PlainCodec#MAX_BIGNUM_BYTES}
 *       bytes, and no other tag [3.4.3];</li>
 *   <li>false, true, null and half, single and double floats; no other simple value, no undefined [3.3];</li>
 *   <li>nothing after the item.</li>
 * </ol>
 * Every error names the offending byte: for UTF-8, the byte that no valid sequence can have there.
 * It recurses once per nesting level, so its stack use is bounded by the depth limit, not by the input.
 */
final class PlainCborValidator {

    private static final int BREAK = 0xff;
    private static final int INDEFINITE = 31;
    private static final int MAJOR_BYTES = 2;
    private static final int MAJOR_TEXT = 3;

    /**
     * Each thread's validator, aimed at each input in turn: its recursive walk keeps a validator of its own from
     * being scalar-replaced, and a small gate call would allocate one per call. No user code runs while it
     * validates, so a thread never needs two at once.
     */
    private static final ThreadLocal<PlainCborValidator> VALIDATORS = ThreadLocal.withInitial(PlainCborValidator::new);

    private byte[] input;
    /** Where the region starts; positions in messages count from here. */
    private int start;
    private int end;
    private int position;

    private PlainCborValidator() {
    }

    /** Throws {@code INVALID_ARGUMENT} naming the first problem and its byte offset from {@code offset}. */
    static void validate(byte[] input, int offset, int length) throws PlainValueException {
        if (length == 0) {
            throw new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "no value: the input is empty");
        }
        PlainCborValidator validator = VALIDATORS.get();
        validator.input = input;
        validator.start = offset;
        validator.end = offset + length;
        validator.position = offset;
        try {
            validator.item(0);
            if (validator.position != validator.end) {
                throw validator.invalid(validator.position, "trailing bytes: the value ends at byte "
                        + (validator.position - offset) + " but the input has " + length + " bytes");
            }
        } finally {
            validator.input = null; // holds no caller's bytes between calls
        }
    }

    /** One data item enclosed by {@code depth} arrays and maps. */
    private void item(int depth) throws PlainValueException {
        int at = position;
        int initial = next();
        if (initial < 0) {
            throw truncated("a value");
        }
        int info = initial & 0x1f;
        switch (initial >>> 5) {
            case 0, 1 -> {
                if (info == INDEFINITE) {
                    throw invalid(at, "an integer cannot have an indefinite length (0x" + hex(initial) + ")");
                }
                argument(info, at);
            }
            case MAJOR_BYTES, MAJOR_TEXT -> string(initial, at, kind(initial >>> 5));
            case 4 -> array(info, at, depth);
            case 5 -> map(info, at, depth);
            case 6 -> tag(info, at);
            default -> simpleOrFloat(info, at);
        }
    }

    /** A string whose head byte at {@code at} has been read; {@code what} names it in messages. */
    private void string(int initial, int at, String what) throws PlainValueException {
        int major = initial >>> 5;
        if ((initial & 0x1f) != INDEFINITE) {
            long length = argument(initial & 0x1f, at);
            checkFits(length, at, "the ", what); // the message is built only on failure: a valid string allocates nothing
            if (major == MAJOR_TEXT) {
                checkUtf8(position, position + (int) length, what, false, at);
            }
            position += (int) length;
            return;
        }
        while (true) {
            int chunkAt = position;
            int chunk = next();
            if (chunk < 0) {
                throw truncated("a chunk or the break ending the indefinite-length " + kind(major) + " at byte " + (at - start));
            }
            if (chunk == BREAK) {
                return;
            }
            if (chunk >>> 5 != major || (chunk & 0x1f) == INDEFINITE) {
                throw invalid(chunkAt, "a chunk of an indefinite-length " + kind(major) + " must be a definite-length "
                        + kind(major) + ", not " + describe(chunk));
            }
            long length = argument(chunk & 0x1f, chunkAt);
            checkFits(length, chunkAt, "the chunk", "");
            if (major == MAJOR_TEXT) {
                checkUtf8(position, position + (int) length, what, true, chunkAt); // named only if it fails
            }
            position += (int) length;
        }
    }

    private void array(int info, int at, int depth) throws PlainValueException {
        enterContainer(at, depth);
        if (info == INDEFINITE) {
            while (!atBreak("array", at)) {
                item(depth + 1);
            }
            position++;
            return;
        }
        long count = argument(info, at);
        // Every item takes at least one byte: a count the input cannot hold is refused before looping on it.
        if (count < 0 || count > end - position) {
            throw invalid(at, "the array declares " + Long.toUnsignedString(count) + " items (at least a byte each) but only "
                    + (end - position) + " bytes remain: the input is cut short or the count is wrong");
        }
        for (long i = 0; i < count; i++) {
            item(depth + 1);
        }
    }

    private void map(int info, int at, int depth) throws PlainValueException {
        enterContainer(at, depth);
        if (info == INDEFINITE) {
            while (!atBreak("map", at)) {
                key();
                item(depth + 1);
            }
            position++;
            return;
        }
        long count = argument(info, at);
        if (count < 0 || count > (end - position) / 2) {
            throw invalid(at, "the map declares " + Long.toUnsignedString(count) + " entries (at least two bytes each) but only "
                    + (end - position) + " bytes remain: the input is cut short or the count is wrong");
        }
        for (long i = 0; i < count; i++) {
            key();
            item(depth + 1);
        }
    }

    private void key() throws PlainValueException {
        int at = position;
        int initial = next();
        if (initial < 0) {
            throw truncated("a map key");
        }
        if (initial >>> 5 != MAJOR_TEXT) {
            throw invalid(at, "a map key is " + describe(initial) + "; plain map keys are text strings");
        }
        string(initial, at, "map key");
    }

    private void enterContainer(int at, int depth) throws PlainValueException {
        if (depth >= PlainCodec.MAX_DEPTH) {
            throw invalid(at, "arrays and maps nest deeper than " + PlainCodec.MAX_DEPTH);
        }
    }

    private boolean atBreak(String container, int at) throws PlainValueException {
        if (position >= end) {
            throw invalid(position, "truncated: the indefinite-length " + container + " at byte " + (at - start)
                    + " has no break (0xff)");
        }
        return (input[position] & 0xff) == BREAK;
    }

    private void tag(int info, int at) throws PlainValueException {
        if (info == INDEFINITE) {
            throw invalid(at, "a tag cannot have an indefinite length (0xdf)");
        }
        long tag = argument(info, at);
        if (tag != 2 && tag != 3) {
            throw invalid(at, "tag " + Long.toUnsignedString(tag) + " is not a plain value (only the bignum tags 2 and 3 are)");
        }
        int contentAt = position;
        int content = next();
        if (content < 0) {
            throw truncated("the bignum's byte string");
        }
        if (content >>> 5 != MAJOR_BYTES || (content & 0x1f) == INDEFINITE) {
            throw invalid(contentAt, "a bignum must hold a definite-length byte string, not " + describe(content));
        }
        long length = argument(content & 0x1f, contentAt);
        if (length < 0 || length > PlainCodec.MAX_BIGNUM_BYTES) {
            throw invalid(at, "the bignum has " + Long.toUnsignedString(length) + " bytes; the limit is "
                    + PlainCodec.MAX_BIGNUM_BYTES);
        }
        skip(length, contentAt, "the bignum");
    }

    private void simpleOrFloat(int info, int at) throws PlainValueException {
        switch (info) {
            case 20, 21, 22 -> { } // false, true, null
            case 25 -> skipFixed(2, at, "half-precision float");
            case 26 -> skipFixed(4, at, "single-precision float");
            case 27 -> skipFixed(8, at, "double-precision float");
            case 23 -> throw invalid(at, "undefined (0xf7) is not a plain value");
            case 24 -> throw invalid(at, "a one-byte simple value (0xf8) is not a plain value");
            case INDEFINITE -> throw invalid(at, "a break (0xff) where a value is expected (a break only ends an"
                    + " indefinite-length array, map or string)");
            default -> throw invalid(at, info < 20
                    ? "the simple value " + info + " is not a plain value"
                    : "reserved additional information " + info + " (0x" + hex(0xe0 | info) + ")");
        }
    }

    /** The argument of the head at {@code at} whose first byte has been read; unsigned, so it may read as negative. */
    private long argument(int info, int at) throws PlainValueException {
        if (info < 24) {
            return info;
        }
        int size = switch (info) {
            case 24 -> 1;
            case 25 -> 2;
            case 26 -> 4;
            case 27 -> 8;
            default -> throw invalid(at, "reserved additional information " + info + " (0x" + hex(input[at] & 0xff) + ")");
        };
        if (size > end - position) {
            throw truncated("a " + size + "-byte argument for the head at byte " + (at - start));
        }
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = value << 8 | (input[position++] & 0xff);
        }
        return value;
    }

    /**
     * Checks that {@code input[from, to)} is well-formed UTF-8 (Unicode table 3-7), naming the first byte
     * that cannot be where it is. The string's head is at {@code head}, for the message.
     */
    private void checkUtf8(int from, int to, String item, boolean inChunk, int head) throws PlainValueException {
        int i = from;
        while (i < to) {
            int lead = input[i] & 0xff;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int length;
            int secondLow = 0x80;
            int secondHigh = 0xbf;
            if (lead >= 0xc2 && lead <= 0xdf) {
                length = 2;
            } else if (lead >= 0xe0 && lead <= 0xef) {
                length = 3;
                secondLow = lead == 0xe0 ? 0xa0 : 0x80;  // below: an overlong form of a 2-byte character
                secondHigh = lead == 0xed ? 0x9f : 0xbf; // above: a surrogate
            } else if (lead >= 0xf0 && lead <= 0xf4) {
                length = 4;
                secondLow = lead == 0xf0 ? 0x90 : 0x80;  // below: an overlong form of a 3-byte character
                secondHigh = lead == 0xf4 ? 0x8f : 0xbf; // above: past U+10FFFF
            } else {
                throw invalidUtf8(i, named(item, inChunk), head, "0x" + hex(lead) + " cannot start a character (" + whyNotALead(lead) + ")");
            }
            for (int k = 1; k < length; k++) {
                if (i + k >= to) {
                    throw invalidUtf8(i, named(item, inChunk), head, "the " + named(item, inChunk) + " ends inside a UTF-8 character (0x" + hex(lead)
                            + " starts a " + length + "-byte character but " + (to - i) + " of " + length + " bytes remain)");
                }
                int next = input[i + k] & 0xff;
                int low = k == 1 ? secondLow : 0x80;
                int high = k == 1 ? secondHigh : 0xbf;
                if (next < low || next > high) {
                    throw invalidUtf8(i + k, named(item, inChunk), head, "0x" + hex(next) + " cannot follow 0x" + hex(lead)
                            + (k == 1 ? "" : " and " + (k - 1) + " continuation byte" + (k == 2 ? "" : "s"))
                            + (next >= 0x80 && next <= 0xbf ? " (" + whyOutOfRange(lead) + ")" : " (not a continuation byte)"));
                }
            }
            i += length;
        }
    }

    /** An item's name in a message: a chunk of an indefinite-length string names the string it belongs to. */
    private static String named(String item, boolean inChunk) {
        return inChunk ? "chunk of the " + item : item;
    }

    private PlainValueException invalidUtf8(int at, String what, int head, String problem) {
        return invalid(at, "invalid UTF-8 in the " + what + " at byte " + (head - start) + ": " + problem);
    }

    private static String whyNotALead(int lead) {
        if (lead <= 0xbf) {
            return "a continuation byte with no lead byte before it";
        }
        if (lead <= 0xc1) {
            return "it would be an overlong encoding of an ASCII character";
        }
        return lead <= 0xf7 ? "it would encode a code point past U+10FFFF" : "never used in UTF-8";
    }

    /** A continuation byte out of the range allowed right after these lead bytes. */
    private static String whyOutOfRange(int lead) {
        return switch (lead) {
            case 0xe0, 0xf0 -> "an overlong encoding";
            case 0xed -> "it would encode a surrogate, U+D800..U+DFFF";
            default -> "it would encode a code point past U+10FFFF"; // 0xf4
        };
    }

    /** Skips a string's content after checking its declared length against what remains. */
    private void skip(long length, int at, String what) throws PlainValueException {
        checkFits(length, at, what, "");
        position += (int) length;
    }

    /** {@code what + whatMore} names the item in the message: two parts, joined only when the check fails. */
    private void checkFits(long length, int at, String what, String whatMore) throws PlainValueException {
        if (length < 0 || length > end - position) {
            throw invalid(at, what + whatMore + " declares " + Long.toUnsignedString(length) + " bytes but only "
                    + (end - position) + " remain");
        }
    }

    private void skipFixed(int size, int at, String what) throws PlainValueException {
        if (size > end - position) {
            throw truncated("the " + size + " bytes of the " + what + " at byte " + (at - start));
        }
        position += size;
    }

    /** The next byte, or -1 at the end of the input. */
    private int next() {
        return position < end ? input[position++] & 0xff : -1;
    }

    private PlainValueException truncated(String expected) {
        return invalid(end, "truncated: expected " + expected + " but the input ends");
    }

    private PlainValueException invalid(int at, String problem) {
        return new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "CBOR refused at byte " + (at - start) + ": " + problem);
    }

    private static String kind(int major) {
        return major == MAJOR_TEXT ? "text string" : "byte string";
    }

    private static String describe(int initial) {
        String kind = switch (initial >>> 5) {
            case 0 -> "an unsigned integer";
            case 1 -> "a negative integer";
            case 2 -> "a byte string";
            case 3 -> "a text string";
            case 4 -> "an array";
            case 5 -> "a map";
            case 6 -> "a tag";
            default -> initial == BREAK ? "a break" : "a simple value or float";
        };
        return kind + " (0x" + hex(initial) + ")";
    }

    private static String hex(int b) {
        return String.format("%02x", b);
    }
}
