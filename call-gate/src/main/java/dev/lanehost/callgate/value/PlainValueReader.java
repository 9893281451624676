package dev.lanehost.callgate.value;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds plain values from the tokens of a Jackson {@code CBORParser} over input that
 * {@link PlainCborValidator} has already accepted, so the structure and the UTF-8 are known to be sound;
 * what is left to fail here is what only values show (duplicate keys, bignums out of range), and Jackson's
 * own UTF-8 check, a second guard.
 *
 * <p>Produces {@code null}, {@code Boolean}, {@code Long} (or {@code BigInteger} outside 64 bits),
 * {@code Double}, {@code String}, {@code byte[]}, {@code ArrayList} and {@code LinkedHashMap} in input order.
 */
final class PlainValueReader {

    private final JsonParser in;
    /** Where in the parser's input a negative bignum over an empty byte string starts, as the validator parsed it. */
    private final BitSet emptyNegativeBignums;
    /** Jackson counts offsets from the start of the array, the caller from the start of the region. */
    private final int regionOffset;

    PlainValueReader(JsonParser in, BitSet emptyNegativeBignums, int regionOffset) {
        this.in = in;
        this.emptyNegativeBignums = emptyNegativeBignums;
        this.regionOffset = regionOffset;
    }

    Object readTop() throws IOException, PlainValueException {
        Object value = read(in.nextToken());
        if (in.nextToken() != null) {
            throw invalid("trailing data after the value"); // the validator has refused this already
        }
        return value;
    }

    private Object read(JsonToken token) throws IOException, PlainValueException {
        if (token == null) {
            throw invalid("truncated: expected a value");
        }
        return switch (token) {
            case VALUE_NULL -> null;
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NUMBER_INT -> readInteger();
            case VALUE_NUMBER_FLOAT -> in.getDoubleValue(); // half and single widen exactly
            case VALUE_STRING -> in.getText();
            case VALUE_EMBEDDED_OBJECT -> readBytes();
            case START_ARRAY -> readList();
            case START_OBJECT -> readMap();
            default -> throw invalid("unexpected " + token);
        };
    }

    private Object readInteger() throws IOException, PlainValueException {
        if (in.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return in.getLongValue();
        }
        BigInteger value = in.getBigIntegerValue();
        // Jackson 2.23 reads tag 3 over h'' as 0; RFC 8949 says -1 - 0. A bignum token's location is its
        // tag head, where the validator marked it.
        if (emptyNegativeBignums.get((int) in.currentTokenLocation().getByteOffset())) {
            value = BigInteger.ONE.negate();
        }
        int bits = value.bitLength();
        if (bits < Long.SIZE) {
            return value.longValue(); // a bignum with leading zeros, or a small one: the same value as a Long
        }
        if (bits > PlainCodec.MAX_BIG_INTEGER_BITS) {
            // Keeps decode's output inside what encode accepts.
            throw invalid("an integer of " + bits + " bits; plain integers have at most "
                    + PlainCodec.MAX_BIG_INTEGER_BITS + " bits plus sign");
        }
        return value;
    }

    private byte[] readBytes() throws IOException, PlainValueException {
        if (in.getEmbeddedObject() instanceof byte[] bytes) {
            return bytes;
        }
        throw invalid("an embedded object that is not a byte string");
    }

    private List<Object> readList() throws IOException, PlainValueException {
        List<Object> list = new ArrayList<>();
        JsonToken token;
        while ((token = in.nextToken()) != JsonToken.END_ARRAY) {
            list.add(read(token));
        }
        return list;
    }

    private Map<String, Object> readMap() throws IOException, PlainValueException {
        Map<String, Object> map = new LinkedHashMap<>();
        JsonToken token;
        while ((token = in.nextToken()) == JsonToken.FIELD_NAME) {
            long keyAt = in.currentTokenLocation().getByteOffset();
            String key = in.currentName();
            Object value = read(in.nextToken());
            int before = map.size();
            map.put(key, value);
            if (map.size() == before) {
                // Which one would win is up to each decoder; refusing is the only answer both sides agree on.
                throw new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "malformed CBOR at byte "
                        + (keyAt - regionOffset) + ": the map has the key \"" + shortened(key) + "\" twice");
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw invalid("expected a map key, found " + token);
        }
        return map;
    }

    /** A message names a key to find it, not to echo a megabyte of it. */
    private static String shortened(String key) {
        return key.length() <= 64 ? key : key.substring(0, 64) + "...";
    }

    private PlainValueException invalid(String problem) {
        long at = in.currentTokenLocation().getByteOffset() - regionOffset;
        return new PlainValueException(PlainValueFailure.INVALID_ARGUMENT, "malformed CBOR at byte " + at + ": " + problem);
    }
}
