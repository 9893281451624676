package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertFails;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a C caller may send that is not one plain CBOR value: always INVALID_ARGUMENT, with the byte offset. */
class PlainCodecMalformedInputTest {

    private final PlainCodec codec = new PlainCodec();

    private PlainValueException assertInvalid(String hexInput, String... expectedInMessage) {
        byte[] input = hex(hexInput);
        PlainValueException failure = assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(input), hexInput);
        for (String expected : expectedInMessage) {
            assertTrue(failure.getMessage().contains(expected), () -> hexInput + ": \"" + expected + "\" in: " + failure.getMessage());
        }
        return failure;
    }

    @Test
    void anEmptyInputIsInvalid() {
        assertInvalid("", "empty");
    }

    @Test
    void everyProperPrefixOfAValidEncodingIsTruncated() throws PlainValueException {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("list", List.of(1, -1000, 1.5, 2.5f, "text", new byte[] {1, 2}, true, false));
        value.put("big", new java.math.BigInteger("123456789012345678901234567890"));
        value.put("nested", Map.of("k", List.of(List.of())));
        byte[] encoded = codec.encode(value);
        for (int length = 0; length < encoded.length; length++) {
            int cut = length;
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(encoded, 0, cut), "prefix of " + cut + " bytes");
        }
    }

    @Test
    void invalidUtf8InAChunkNamesTheChunkAndItsString() {
        // (_ "a", "\xff"): the second chunk of an indefinite-length text holds a byte no UTF-8 character starts with
        assertInvalid("7f616161ffff", "invalid UTF-8 in the chunk of the text string", "0xff cannot start a character");
        assertInvalid("a17f61ff ff01".replace(" ", ""), "invalid UTF-8 in the chunk of the map key");
    }

    @Test
    void aTruncatedHeadIsInvalid() {
        assertInvalid("1a000f", "truncated", "4-byte argument");
        assertInvalid("fb3ff1", "truncated", "double-precision float");
    }

    @Test
    void aMapKeyThatIsNotATextStringIsInvalid() {
        assertInvalid("a10101", "at byte 1", "unsigned integer", "keys are text strings");
        assertInvalid("a1200101", "at byte 1", "negative integer");
        assertInvalid("a1410101", "at byte 1", "byte string");
        assertInvalid("a18001", "at byte 1", "an array");
        assertInvalid("a1a001", "at byte 1", "a map");
        assertInvalid("a1c2616101", "at byte 1", "a tag");
        assertInvalid("a1f601", "at byte 1", "simple value");
        assertInvalid("bf6161010201ff", "at byte 4", "unsigned integer");
    }

    @Test
    void anUnterminatedIndefiniteContainerIsInvalid() {
        assertInvalid("9f01", "truncated", "indefinite-length array at byte 0", "no break");
        assertInvalid("bf616101", "truncated", "indefinite-length map at byte 0");
        assertInvalid("bf6161", "truncated", "a value");
        assertInvalid("7f6161", "truncated", "indefinite-length text string at byte 0");
        assertInvalid("5f4101", "truncated", "indefinite-length byte string at byte 0");
        assertInvalid("829f01", "truncated", "indefinite-length array at byte 1");
    }

    @Test
    void aBreakOutsideAnIndefiniteContainerIsInvalid() {
        assertInvalid("ff", "at byte 0", "break");
        assertInvalid("81ff", "at byte 1", "break");
        assertInvalid("a161ff01", "at byte 2", "UTF-8"); // inside a string 0xff is content, and not UTF-8
        assertInvalid("a16161ff", "at byte 3", "break");
        assertInvalid("bf6161ff", "at byte 3", "break");
        assertInvalid("01ff", "at byte 1", "trailing");
    }

    @Test
    void indefiniteLengthAbuseIsInvalid() {
        assertInvalid("1f", "integer cannot have an indefinite length");
        assertInvalid("3f", "integer cannot have an indefinite length");
        assertInvalid("df00", "tag cannot have an indefinite length");
        assertInvalid("7f01ff", "at byte 1", "chunk", "definite-length text string");
        assertInvalid("5f6161ff", "at byte 1", "chunk", "definite-length byte string");
        assertInvalid("5f5f4101ffff", "at byte 1", "chunk");
        assertInvalid("7f7f6161ffff", "at byte 1", "chunk");
        // Each chunk must be valid UTF-8 on its own: the first ends inside the character that c3 starts.
        assertInvalid("7f61c361a9ff", "at byte 2", "chunk", "ends inside a UTF-8 character");
    }

    @Test
    void aDeclaredLengthLargerThanTheInputIsRefusedBeforeReading() {
        assertInvalid("5affffffff", "declares 4294967295 bytes but only 0 remain");
        assertInvalid("5b7fffffffffffffff", "declares 9223372036854775807 bytes");
        assertInvalid("5bffffffffffffffff", "declares 18446744073709551615 bytes");
        assertInvalid("7a00100000", "declares 1048576 bytes");
        assertInvalid("6361", "declares 3 bytes but only 1 remain");
        assertInvalid("9affffffff", "array declares 4294967295 items");
        assertInvalid("9bffffffffffffffff", "array declares 18446744073709551615 items");
        assertInvalid("bbffffffffffffffff", "map declares 18446744073709551615 entries");
        assertInvalid("a2616101", "map declares 2 entries (at least two bytes each) but only 3 bytes remain: the input is cut short");
        assertInvalid("7f7a7fffffffff", "chunk declares 2147483647 bytes");
    }

    @Test
    void unsupportedTagsAreInvalid() {
        assertInvalid("c100", "tag 1 is not a plain value");
        assertInvalid("c074323031332d30332d32315432303a30343a30305a", "tag 0");
        assertInvalid("d9d9f700", "tag 55799");
        assertInvalid("c48221196ab3", "tag 4");
        assertInvalid("d818456449455446", "tag 24");
        assertInvalid("c2", "truncated", "bignum");
        assertInvalid("c26161", "bignum must hold a definite-length byte string", "text string");
        assertInvalid("c25f4101ff", "bignum must hold a definite-length byte string");
        assertInvalid("c2c24101", "bignum must hold");
    }

    @Test
    void aBignumBeyondTheLimitIsInvalid() {
        byte[] tooLong = new byte[3 + PlainCodec.MAX_BIGNUM_BYTES + 1];
        tooLong[0] = (byte) 0xc2;
        tooLong[1] = 0x58;
        tooLong[2] = (byte) (PlainCodec.MAX_BIGNUM_BYTES + 1);
        tooLong[3] = 1;
        assertInvalid(hex(tooLong), "65 bytes; the limit is 64");
        byte[] tooLarge = Arrays.copyOf(tooLong, 3 + PlainCodec.MAX_BIGNUM_BYTES);
        tooLarge[2] = (byte) PlainCodec.MAX_BIGNUM_BYTES;
        tooLarge[3] = (byte) 0x80; // 2^511: fits in 64 bytes, but not in 511 bits
        assertInvalid(hex(tooLarge), "512 bits");
    }

    @Test
    void unsupportedSimpleValuesAreInvalid() {
        assertInvalid("f7", "undefined");
        assertInvalid("f0", "simple value 16");
        assertInvalid("e0", "simple value 0");
        assertInvalid("f820", "one-byte simple value");
        assertInvalid("f8ff", "one-byte simple value");
        assertInvalid("f813", "one-byte simple value");
        assertInvalid("fc", "reserved");
        assertInvalid("1c", "reserved");
        assertInvalid("5d", "reserved");
        assertInvalid("9e", "reserved");
    }

    @Test
    void trailingBytesAfterTheValueAreInvalid() {
        assertInvalid("0102", "at byte 1", "trailing", "ends at byte 1 but the input has 2 bytes");
        assertInvalid("8000", "at byte 1", "trailing");
        assertInvalid("f600000000", "trailing");
    }

    @Test
    void nestingPastTheLimitIsInvalid() throws PlainValueException {
        byte[] deepest = new byte[PlainCodec.MAX_DEPTH + 1];
        Arrays.fill(deepest, (byte) 0x81);
        deepest[PlainCodec.MAX_DEPTH] = 0x00;
        codec.decode(deepest); // exactly at the limit
        byte[] tooDeep = new byte[PlainCodec.MAX_DEPTH + 2];
        Arrays.fill(tooDeep, (byte) 0x9f);
        assertInvalid(hex(tooDeep), "at byte 64", "nest deeper than 64");
        byte[] deepMaps = new byte[2 * (PlainCodec.MAX_DEPTH + 1)];
        for (int i = 0; i < deepMaps.length; i += 2) {
            deepMaps[i] = (byte) 0xa1;
            deepMaps[i + 1] = 0x60; // key ""
        }
        assertInvalid(hex(deepMaps), "at byte 128", "nest deeper than 64");
        byte[] huge = new byte[100_000];
        Arrays.fill(huge, (byte) 0x81);
        assertInvalid(hex(huge), "nest deeper than 64");
    }

    @Test
    void invalidUtf8IsInvalid() {
        assertInvalid("62c328", "UTF-8");
        assertInvalid("61ff", "UTF-8");
        assertInvalid("63eda080", "surrogate");
        assertInvalid("62c080", "UTF-8");
        assertInvalid("64f4908080", "U+10FFFF");
        assertInvalid("a162c32801", "UTF-8");
        assertInvalid("7f62c328ff", "UTF-8");
    }

    @Test
    void invalidUtf8NamesTheOffendingByte() {
        assertInvalid("62c080", "at byte 1:", "0xc0");                 // c0 never starts a character
        assertInvalid("61ff", "at byte 1:", "0xff");
        assertInvalid("6180", "at byte 1:", "0x80");                 // a continuation byte with no lead
        assertInvalid("62c328", "at byte 2:", "0x28");                 // the lead is fine; what follows is not
        assertInvalid("63eda080", "at byte 2:", "surrogate");
        assertInvalid("63e08080", "at byte 2:", "overlong");
        assertInvalid("64f4908080", "at byte 2:", "U+10FFFF");
        assertInvalid("64f0808080", "at byte 2:", "overlong");
        assertInvalid("64f0908041", "at byte 4:", "0x41");             // the third continuation byte
        assertInvalid("636162e2", "at byte 3:", "ends inside");        // the string ends mid-character
        assertInvalid("6361e282", "at byte 2:", "ends inside");
    }

    @Test
    void invalidUtf8InTheMiddleOfALongerStringNamesItsByte() {
        // "abc" c0 80 "def": the string head is byte 0, the bad byte is the fifth of the content.
        assertInvalid("68616263c080646566", "at byte 4:", "0xc0");
        // 3-byte and 4-byte characters before the bad byte: offsets count bytes, not characters.
        assertInvalid("69e6b0b4f0908591" + "61ff", "at byte 9:", "0xff");
        // Past 23 bytes the head has a length byte: 24 x 'a', then the bad byte at 2 + 24.
        assertInvalid("7819" + "61".repeat(24) + "c1", "at byte 26:", "0xc1");
    }

    @Test
    void invalidUtf8InsideANestedStructureNamesItsByteFromTheInputStart() {
        // [1, {"k": "ab" ff "c"}]: 82 01 a1 61 6b 64 61 62 ff 63
        assertInvalid("8201a1616b646162ff63", "at byte 8:", "0xff", "text string");
        // A bad map key: {"a" ff: 1}
        assertInvalid("a16261ff01", "at byte 3:", "0xff", "map key");
        // An indefinite string whose second chunk holds the bad byte: (_ "ab", "c" ff "d")
        assertInvalid("7f626162" + "6363ff64" + "ff", "at byte 6:", "0xff", "chunk");
        // Deep inside lists: [[[ "x" c0 ]]]
        assertInvalid("818181" + "6278c0", "at byte 5:", "0xc0");
    }

    @Test
    void aDuplicateMapKeyIsInvalid() {
        assertInvalid("a2616101616102", "at byte 4", "key \"a\" twice");
        assertInvalid("bf6161017f6161ff02ff", "at byte 4", "twice");
    }

    @Test
    void offsetsInMessagesCountFromTheRegionStart() {
        byte[] framed = hex("00000000 a10101 0000");
        PlainValueException failure = assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(framed, 4, 3));
        assertTrue(failure.getMessage().startsWith("CBOR refused at byte 1:"), failure.getMessage());
        byte[] badUtf8 = hex("0000 62c328");
        failure = assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(badUtf8, 2, 3));
        assertTrue(failure.getMessage().startsWith("CBOR refused at byte 2:"), failure.getMessage());
    }
}
