package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bignums (RFC 8949 section 3.4.3): every spelling decodes to its value, and encoding writes the preferred one. */
class PlainCodecBignumTest {

    private final PlainCodec codec = new PlainCodec();

    /** Every head spelling of "tag 3 over an empty byte string" and of "tag 2 over an empty byte string". */
    private static final List<String> NEGATIVE_EMPTY_BIGNUMS = List.of(
            "c340",                          // the preferred spelling
            "d80340",                        // the tag number in a 1-byte argument
            "d9000340",                      // ... 2 bytes
            "da0000000340",                  // ... 4 bytes
            "db000000000000000340",          // ... 8 bytes
            "c35800",                        // the byte-string length in a 1-byte argument
            "c3590000",                      // ... 2 bytes
            "c35a00000000",                  // ... 4 bytes
            "c35b0000000000000000",          // ... 8 bytes
            "db00000000000000035b0000000000000000"); // both heads at full width

    private static String positive(String negativeSpelling) {
        // The tag number is the last byte of the tag head; 03 -> 02 in the same position.
        int tagEnd = switch (negativeSpelling.substring(0, 2)) {
            case "c3" -> 0;
            case "d8" -> 2;
            case "d9" -> 4;
            case "da" -> 8;
            default -> 16;
        };
        String tag = negativeSpelling.substring(0, tagEnd + 2);
        return tag.substring(0, tag.length() - 1) + "2" + negativeSpelling.substring(tagEnd + 2);
    }

    @Test
    void aNegativeBignumOverAnEmptyByteStringIsMinusOneWhateverItsHeads() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            assertEquals(-1L, codec.decode(hex(spelling)), spelling);
        }
    }

    @Test
    void aPositiveBignumOverAnEmptyByteStringIsZeroWhateverItsHeads() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            String positive = positive(spelling);
            assertEquals(0L, codec.decode(hex(positive)), positive);
        }
    }

    @Test
    void anEmptyNegativeBignumIsMinusOneInsideListsAndMaps() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            assertEquals(List.of(-1L), codec.decode(hex("81" + spelling)), "[" + spelling + "]");
            assertEquals(List.of(-1L, 0L, -1L), codec.decode(hex("83" + spelling + positive(spelling) + spelling)), spelling);
            assertEquals(Map.of("a", -1L), codec.decode(hex("a16161" + spelling)), "{a: " + spelling + "}");
            assertEquals(List.of(List.of(0L, -1L)), codec.decode(hex("9f82" + positive(spelling) + spelling + "ff")), spelling);
        }
        assertEquals(List.of(-1L), codec.decode(hex("81d80340")));
    }

    @Test
    void anEmptyNegativeBignumIsMinusOneInARegionThatDoesNotStartTheArray() throws PlainValueException {
        // The validator marks array positions and Jackson reports them; a region offset must not shift either.
        byte[] framed = hex("c340 c240 d80340 c240");
        assertEquals(0L, codec.decode(framed, 2, 2));
        assertEquals(-1L, codec.decode(framed, 4, 3));
        assertEquals(-1L, codec.decode(framed, 0, 2));
        assertEquals(List.of(-1L), codec.decode(hex("ffff 81d80340 ff"), 2, 4));
    }

    @Test
    void aNegativeBignumOverZeroBytesIsMinusOne() throws PlainValueException {
        // Not empty, but a magnitude of 0 all the same: -1 - 0.
        assertEquals(-1L, codec.decode(hex("c34100")));
        assertEquals(-1L, codec.decode(hex("d900035a000000020000")));
    }

    private static BigInteger two(int power) {
        return BigInteger.ONE.shiftLeft(power);
    }

    private static String repeat(String hexByte, int count) {
        return hexByte.repeat(count);
    }

    private void assertEncodesAndRoundTrips(BigInteger value, String expectedHex) throws PlainValueException {
        assertEquals(expectedHex, hex(codec.encode(value)), () -> "encoding " + value);
        assertPlainEquals(value, codec.decode(hex(expectedHex)));
        assertEquals("81" + expectedHex, hex(codec.encode(List.of(value))), () -> "encoding [" + value + "]");
    }

    @Test
    void aPositiveBignumIsWrittenWithItsMinimalMagnitude() throws PlainValueException {
        assertEncodesAndRoundTrips(two(64), "c249" + "01" + repeat("00", 8));
        assertEncodesAndRoundTrips(two(71).subtract(BigInteger.ONE), "c249" + "7f" + repeat("ff", 8));
        // The top magnitude bit set: no 00 sign byte in front (BigInteger.toByteArray would add one).
        assertEncodesAndRoundTrips(two(71), "c249" + "80" + repeat("00", 8));
        assertEncodesAndRoundTrips(two(72).subtract(BigInteger.ONE), "c249" + repeat("ff", 9));
        assertEncodesAndRoundTrips(two(72), "c24a" + "01" + repeat("00", 9));
        assertEncodesAndRoundTrips(two(255), "c25820" + "80" + repeat("00", 31));
        assertEncodesAndRoundTrips(two(256).subtract(BigInteger.ONE), "c25820" + repeat("ff", 32));
        assertEncodesAndRoundTrips(two(256), "c25821" + "01" + repeat("00", 32));
        assertEncodesAndRoundTrips(two(511).subtract(BigInteger.ONE), "c25840" + "7f" + repeat("ff", 63));
    }

    @Test
    void aNegativeBignumIsWrittenWithTheMinimalMagnitudeOfMinusOneMinusN() throws PlainValueException {
        // -2^64 .. -2^63-1 fit major type 1's 8-byte argument, which preferred serialization takes over a bignum.
        assertEncodesAndRoundTrips(two(64).negate(), "3b" + repeat("ff", 8));
        assertEncodesAndRoundTrips(two(63).negate().subtract(BigInteger.ONE), "3b" + "80" + repeat("00", 7));
        assertEncodesAndRoundTrips(two(64).negate().subtract(BigInteger.ONE), "c349" + "01" + repeat("00", 8));
        assertEncodesAndRoundTrips(two(71).negate(), "c349" + "7f" + repeat("ff", 8));
        assertEncodesAndRoundTrips(two(71).negate().subtract(BigInteger.ONE), "c349" + "80" + repeat("00", 8));
        assertEncodesAndRoundTrips(two(72).negate(), "c349" + repeat("ff", 9));
        assertEncodesAndRoundTrips(two(255).negate().subtract(BigInteger.ONE), "c35820" + "80" + repeat("00", 31));
        assertEncodesAndRoundTrips(two(256).negate(), "c35820" + repeat("ff", 32));
        assertEncodesAndRoundTrips(two(511).negate(), "c35840" + "7f" + repeat("ff", 63));
    }

    @Test
    void everyBignumHasTheShortestMagnitude() throws PlainValueException {
        // Preferred serialization for every width from 65 to 511 bits, both signs, at and around each power of 2.
        for (int bits = 64; bits < PlainCodec.MAX_BIG_INTEGER_BITS; bits++) { // from 2^64: below, major type 0 or 1
            for (BigInteger magnitude : List.of(two(bits), two(bits + 1).subtract(BigInteger.ONE))) {
                for (BigInteger value : List.of(magnitude, magnitude.negate().subtract(BigInteger.ONE))) {
                    byte[] encoded = codec.encode(value);
                    int contentLength = (magnitude.bitLength() + 7) / 8;
                    assertEquals(contentLength, encoded.length - (contentLength < 24 ? 2 : 3), () -> "length of " + value);
                    assertEquals(value, codec.decode(encoded), () -> hex(encoded));
                }
            }
        }
    }
}
