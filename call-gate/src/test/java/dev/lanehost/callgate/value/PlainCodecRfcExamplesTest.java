package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The examples of RFC 8949 Appendix A that are plain values, byte for byte. */
class PlainCodecRfcExamplesTest {

    private final PlainCodec codec = new PlainCodec();

    private void assertEncodes(Object value, String expectedHex) throws PlainValueException {
        assertEquals(expectedHex, hex(codec.encode(value)), () -> "encoding " + PlainValues.describe(value));
        assertDecodes(expectedHex, PlainValues.normalised(value));
    }

    private void assertDecodes(String hex, Object expected) throws PlainValueException {
        assertPlainEquals(expected, codec.decode(PlainValues.hex(hex)));
    }

    @Test
    void integersUseThePreferredSerialization() throws PlainValueException {
        assertEncodes(0, "00");
        assertEncodes(1, "01");
        assertEncodes(10, "0a");
        assertEncodes(23, "17");
        assertEncodes(24, "1818");
        assertEncodes(25, "1819");
        assertEncodes(100, "1864");
        assertEncodes(1000, "1903e8");
        assertEncodes(1000000, "1a000f4240");
        assertEncodes(1000000000000L, "1b000000e8d4a51000");
        assertEncodes(new BigInteger("18446744073709551615"), "1bffffffffffffffff");
        assertEncodes(new BigInteger("18446744073709551616"), "c249010000000000000000");
        assertEncodes(new BigInteger("-18446744073709551617"), "c349010000000000000000");
        assertEncodes(-1, "20");
        assertEncodes(-10, "29");
        assertEncodes(-100, "3863");
        assertEncodes(-1000, "3903e7");
    }

    @Test
    void aFullWidthNegativeIntegerIsMajorTypeOneBothWays() throws PlainValueException {
        // Appendix A: -2^64 is 3bffffffffffffffff; preferred serialization takes major type 1 over a bignum
        // for every integer its 8-byte argument holds (section 3.4.3).
        assertEncodes(new BigInteger("-18446744073709551616"), "3bffffffffffffffff");
        assertEncodes(new BigInteger("-9223372036854775809"), "3b8000000000000000");
        assertEncodes(List.of(new BigInteger("-18446744073709551616")), "813bffffffffffffffff");
    }

    @Test
    void aFullWidthNegativeIntegerAsATagThreeBignumStillDecodesToTheSameValue() throws PlainValueException {
        // What earlier versions wrote for the same values: tag 3 over the magnitude -1-n.
        assertDecodes("c348ffffffffffffffff", new BigInteger("-18446744073709551616"));
        assertDecodes("c3488000000000000000", new BigInteger("-9223372036854775809"));
        assertPlainEquals(codec.decode(PlainValues.hex("3bffffffffffffffff")),
                codec.decode(PlainValues.hex("c348ffffffffffffffff")));
    }

    @Test
    void floatsKeepTheirJavaWidth() throws PlainValueException {
        assertEncodes(1.1, "fb3ff199999999999a");
        assertEncodes(1.0e+300, "fb7e37e43c8800759c");
        assertEncodes(-4.1, "fbc010666666666666");
        assertEncodes(100000.0f, "fa47c35000");
        assertEncodes(3.4028234663852886e+38f, "fa7f7fffff");
    }

    @Test
    void halfAndSinglePrecisionDecodeToDoubles() throws PlainValueException {
        assertDecodes("f90000", 0.0);
        assertDecodes("f98000", -0.0);
        assertDecodes("f93c00", 1.0);
        assertDecodes("f93e00", 1.5);
        assertDecodes("f97bff", 65504.0);
        assertDecodes("f90001", 5.960464477539063e-8);
        assertDecodes("f90400", 0.00006103515625);
        assertDecodes("f9c400", -4.0);
        assertDecodes("f97c00", Double.POSITIVE_INFINITY);
        assertDecodes("f97e00", Double.NaN);
        assertDecodes("f9fc00", Double.NEGATIVE_INFINITY);
        assertDecodes("fa47c35000", 100000.0);
        assertDecodes("fa7f800000", Double.POSITIVE_INFINITY);
        assertDecodes("fb7ff8000000000000", Double.NaN);
    }

    @Test
    void simpleValuesStringsAndByteStrings() throws PlainValueException {
        assertEncodes(false, "f4");
        assertEncodes(true, "f5");
        assertEncodes(null, "f6");
        assertEncodes(new byte[0], "40");
        assertEncodes(new byte[] {1, 2, 3, 4}, "4401020304");
        assertEncodes("", "60");
        assertEncodes("a", "6161");
        assertEncodes("IETF", "6449455446");
        assertEncodes("\"\\", "62225c");
        assertEncodes("\u00fc", "62c3bc");
        assertEncodes("\u6c34", "63e6b0b4");
        assertEncodes("\ud800\udd51", "64f0908591");
    }

    @Test
    void arraysAndMaps() throws PlainValueException {
        assertEncodes(List.of(), "80");
        assertEncodes(List.of(1, 2, 3), "83010203");
        assertEncodes(List.of(1, List.of(2, 3)), "8201820203");
        assertEncodes(List.of(1, List.of(2, 3), List.of(4, 5)), "8301820203820405");
        assertEncodes(IntStream.rangeClosed(1, 25).boxed().toList(),
                "98190102030405060708090a0b0c0d0e0f101112131415161718181819");
        assertEncodes(Map.of(), "a0");
        assertEncodes(Map.of("a", 1), "a1616101");
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", List.of(2, 3));
        assertEncodes(ab, "a26161016162820203");
        assertEncodes(List.of("a", Map.of("b", "c")), "826161a161626163");
        Map<String, Object> letters = new LinkedHashMap<>();
        for (String letter : List.of("a", "b", "c", "d", "e")) {
            letters.put(letter, letter.toUpperCase());
        }
        assertEncodes(letters, "a56161614161626142616361436164614461656145");
    }

    @Test
    void indefiniteLengthItemsDecode() throws PlainValueException {
        assertDecodes("5f42010243030405ff", new byte[] {1, 2, 3, 4, 5});
        assertDecodes("7f657374726561646d696e67ff", "streaming");
        assertDecodes("9fff", List.of());
        assertDecodes("9f018202039f0405ffff", List.of(1L, List.of(2L, 3L), List.of(4L, 5L)));
        assertDecodes("9f01820203820405ff", List.of(1L, List.of(2L, 3L), List.of(4L, 5L)));
        assertDecodes("83018202039f0405ff", List.of(1L, List.of(2L, 3L), List.of(4L, 5L)));
        assertDecodes("83019f0203ff820405", List.of(1L, List.of(2L, 3L), List.of(4L, 5L)));
        assertDecodes("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
                IntStream.rangeClosed(1, 25).mapToObj(i -> (long) i).toList());
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1L);
        ab.put("b", List.of(2L, 3L));
        assertDecodes("bf61610161629f0203ffff", ab);
        assertDecodes("826161bf61626163ff", List.of("a", Map.of("b", "c")));
        Map<String, Object> funAmt = new LinkedHashMap<>();
        funAmt.put("Fun", true);
        funAmt.put("Amt", -2L);
        assertDecodes("bf6346756ef563416d7421ff", funAmt);
    }

    @Test
    void bignumsWithLeadingZerosDecodeToTheirValue() throws PlainValueException {
        assertDecodes("c2420001", 1L);
        assertDecodes("c240", 0L);
        assertDecodes("c340", -1L);
        assertDecodes("c249000000000000000001", 1L);
        assertEquals(Arrays.asList(BigInteger.ONE.shiftLeft(64)), codec.decode(PlainValues.hex("81c249010000000000000000")));
    }
}
