package dev.lanehost.callgate.value;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds plain values from a byte region that {@link PlainCborValidator} has accepted, so every head is well-formed,
 * every declared length fits, text is UTF-8, map keys are text and tags are bignums; what is left to fail here is
 * what only values show: a key twice in one map, a bignum out of range.
 *
 * <p>Produces {@code null}, {@code Boolean}, {@code Long} (or {@code BigInteger} outside 64 bits), {@code Double}
 * (half and single floats widen exactly), {@code String}, {@code byte[]}, {@code ArrayList} and
 * {@code LinkedHashMap} in input order. One pass, no parser objects: a value of a few items costs its own objects
 * and nothing else.
 */
final class PlainCborReader {
    private static final int INDEFINITE = 31;
    private static final int BREAK = 0xff;

    /** Each thread's reader, aimed at each input in turn (as the validator is: a recursive walk's object escapes). */
    private static final ThreadLocal<PlainCborReader> READERS = ThreadLocal.withInitial(PlainCborReader::new);

    private byte[] in;
    /** Where the region starts; positions in messages count from here. */
    private int start;
    private int position;

    private PlainCborReader() {
    }

    /** The one item at {@code input[offset...]}, which the validator has accepted. */
    static Object read(byte[] input, int offset) throws PlainValueException {
        PlainCborReader reader = READERS.get();
        reader.in = input;
        reader.start = offset;
        reader.position = offset;
        try {
            return reader.item();
        } finally {
            reader.in = null; // holds no caller's bytes between calls
        }
    }

    private Object item() throws PlainValueException {
        int at = position;
        int initial = in[position++] & 0xff;
        int info = initial & 0x1f;
        return switch (initial >>> 5) {
            case 0 -> unsigned(argument(info));
            case 1 -> negative(argument(info));
            case 2 -> bytes(info);
            case 3 -> text(info);
            case 4 -> list(info);
            case 5 -> map(info);
            case 6 -> bignum(argument(info), at);
            default -> simpleOrFloat(info);
        };
    }

    /** Major type 0: {@code n}, read as unsigned. */
    private static Object unsigned(long n) {
        return n >= 0 ? (Object) n : new BigInteger(Long.toUnsignedString(n));
    }

    /** Major type 1: {@code -1 - n}, {@code n} read as unsigned. */
    private static Object negative(long n) {
        return n >= 0 ? (Object) (-1 - n) : new BigInteger(Long.toUnsignedString(n)).not();
    }

    private Object bignum(long tag, int at) throws PlainValueException {
        int length = (int) argument(in[position++] & 0x1f); // a definite byte string of at most 64 bytes
        BigInteger magnitude = new BigInteger(1, in, position, length);
        position += length;
        BigInteger value = tag == 3 ? magnitude.not() : magnitude; // RFC 8949: tag 3 is -1 - n, so h'' is -1
        int bits = value.bitLength();
        if (bits < Long.SIZE) {
            return value.longValue(); // a bignum with leading zeros, or a small one: the same value as a Long
        }
        if (bits > PlainCodec.MAX_BIG_INTEGER_BITS) {
            // Keeps decode's output inside what encode accepts.
            throw invalid(at, "an integer of " + bits + " bits; plain integers have at most "
                    + PlainCodec.MAX_BIG_INTEGER_BITS + " bits plus sign");
        }
        return value;
    }

    private byte[] bytes(int info) {
        if (info != INDEFINITE) {
            int length = (int) argument(info);
            byte[] bytes = Arrays.copyOfRange(in, position, position + length);
            position += length;
            return bytes;
        }
        return chunks();
    }

    private String text(int info) {
        if (info != INDEFINITE) {
            int length = (int) argument(info);
            String text = new String(in, position, length, StandardCharsets.UTF_8);
            position += length;
            return text;
        }
        return new String(chunks(), StandardCharsets.UTF_8); // each chunk is whole UTF-8, so their sum is too
    }

    /** The contents of an indefinite-length string's chunks, up to its break, as one array. */
    private byte[] chunks() {
        int first = position;
        int total = 0;
        while ((in[position] & 0xff) != BREAK) {
            int length = (int) argument(in[position++] & 0x1f);
            total += length;
            position += length;
        }
        byte[] joined = new byte[total];
        position = first;
        int filled = 0;
        while ((in[position] & 0xff) != BREAK) {
            int length = (int) argument(in[position++] & 0x1f);
            System.arraycopy(in, position, joined, filled, length);
            filled += length;
            position += length;
        }
        position++; // the break
        return joined;
    }

    private List<Object> list(int info) throws PlainValueException {
        if (info == INDEFINITE) {
            List<Object> list = new ArrayList<>();
            while ((in[position] & 0xff) != BREAK) {
                list.add(item());
            }
            position++;
            return list;
        }
        int count = (int) argument(info); // the validator held it to the bytes left, each item at least one
        List<Object> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(item());
        }
        return list;
    }

    private Map<String, Object> map(int info) throws PlainValueException {
        boolean indefinite = info == INDEFINITE;
        long count = indefinite ? -1 : argument(info);
        Map<String, Object> map = indefinite ? new LinkedHashMap<>() : LinkedHashMap.newLinkedHashMap((int) count);
        for (long i = 0; indefinite ? (in[position] & 0xff) != BREAK : i < count; i++) {
            int keyAt = position;
            String key = text(in[position++] & 0x1f);
            int before = map.size();
            map.put(key, item());
            if (map.size() == before) {
                // Which one would win is up to each decoder; refusing is the only answer both sides agree on.
                throw invalid(keyAt, "the map has the key \"" + shortened(key) + "\" twice");
            }
        }
        if (indefinite) {
            position++;
        }
        return map;
    }

    private Object simpleOrFloat(int info) {
        return switch (info) {
            case 20 -> Boolean.FALSE;
            case 21 -> Boolean.TRUE;
            case 25 -> (double) Float.float16ToFloat((short) fixed(2));
            case 26 -> (double) Float.intBitsToFloat((int) fixed(4));
            case 27 -> Double.longBitsToDouble(fixed(8));
            default -> null; // 22; the validator let no other simple value through
        };
    }

    /** The argument of a head whose first byte has been read: unsigned, so 2^63 and above read as negative. */
    private long argument(int info) {
        return switch (info) {
            case 24 -> fixed(1);
            case 25 -> fixed(2);
            case 26 -> fixed(4);
            case 27 -> fixed(8);
            default -> info; // below 24: the value itself
        };
    }

    private long fixed(int size) {
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = value << 8 | (in[position++] & 0xff);
        }
        return value;
    }

    /** A message names a key to find it, not to echo a megabyte of it. */
    private static String shortened(String key) {
        return key.length() <= 64 ? key : key.substring(0, 64) + "...";
    }

    private PlainValueException invalid(int at, String problem) {
        return new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "CBOR refused at byte " + (at - start) + ": " + problem);
    }
}
