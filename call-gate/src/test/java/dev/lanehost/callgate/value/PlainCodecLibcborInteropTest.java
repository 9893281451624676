package dev.lanehost.callgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The codec against an independent CBOR implementation, Debian's libcbor, in both directions: what the
 * codec writes, libcbor reads as the same value; what libcbor's encoders write, in any spelling they can,
 * the codec reads as the same value. Values are compared as {@link DiagnosticText}, which libcbor's side
 * ({@code src/test/c/cbor_interop.c}) prints the same way.
 *
 * <p>libcbor is a required test dependency: without it this test fails and says how to install it. Seeded,
 * so a failure reproduces; the failing value, bytes and both readings are in the message.
 */
class PlainCodecLibcborInteropTest {

    private static final long SEED = 0x11BC_B0A2L;
    private static final int RANDOM_VALUES = 3_000;

    private static LibcborTool libcbor;

    private final PlainCodec codec = new PlainCodec();

    @BeforeAll
    static void findTheTool() {
        libcbor = LibcborTool.built();
    }

    @Test
    void whatTheCodecWritesLibcborReadsAsTheSameValue() throws Exception {
        RandomGenerator random = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED);
        List<Object> values = new ArrayList<>();
        List<String> encodings = new ArrayList<>();
        for (int i = 0; i < RANDOM_VALUES; i++) {
            Object value = randomValue(random, 0);
            values.add(value);
            encodings.add(PlainValues.hex(codec.encode(value)));
        }
        List<String> libcborReadings = libcbor.decode("codec-to-libcbor", encodings);
        for (int i = 0; i < values.size(); i++) {
            String expected = DiagnosticText.of(values.get(i));
            int at = i;
            assertEquals(expected, libcborReadings.get(i), () -> "value " + at + " (seed " + SEED + "): "
                    + PlainValues.describe(values.get(at)) + "\nencoded as " + encodings.get(at));
        }
    }

    @Test
    void whatLibcborWritesTheCodecReadsAsTheSameValue() throws Exception {
        RandomGenerator random = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED + 1);
        List<Object> values = new ArrayList<>();
        List<String> descriptions = new ArrayList<>();
        for (int i = 0; i < RANDOM_VALUES; i++) {
            Object value = randomValue(random, 0);
            values.add(value);
            descriptions.add(LibcborDescription.of(value, random));
        }
        List<String> encodings = libcbor.encode("libcbor-to-codec", descriptions);
        for (int i = 0; i < values.size(); i++) {
            int at = i;
            Object decoded;
            try {
                decoded = codec.decode(PlainValues.hex(encodings.get(i)));
            } catch (PlainValueException e) {
                throw new AssertionError("value " + at + " (seed " + (SEED + 1) + "): the codec refused what libcbor wrote for "
                        + descriptions.get(at) + ": " + encodings.get(at) + ": " + e.getMessage(), e);
            }
            assertEquals(DiagnosticText.of(values.get(i)), DiagnosticText.of(decoded), () -> "value " + at + " (seed "
                    + (SEED + 1) + "): libcbor wrote " + encodings.get(at) + " for " + descriptions.get(at));
            PlainValues.assertPlainEquals(PlainValues.normalised(values.get(i)), decoded);
        }
    }

    private static final String ONE_TO_25 = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]";

    /** RFC 8949 Appendix A: the encoding and its value in diagnostic text; null where libcbor 0.8 refuses it. */
    private static final String[][] APPENDIX_A = {
        {"00", "0"}, {"01", "1"}, {"0a", "10"}, {"17", "23"}, {"1818", "24"}, {"1819", "25"}, {"1864", "100"},
        {"1903e8", "1000"}, {"1a000f4240", "1000000"}, {"1b000000e8d4a51000", "1000000000000"},
        {"1bffffffffffffffff", "18446744073709551615"}, {"c249010000000000000000", "18446744073709551616"},
        {"3bffffffffffffffff", "-18446744073709551616"}, {"c349010000000000000000", "-18446744073709551617"},
        {"20", "-1"}, {"29", "-10"}, {"3863", "-100"}, {"3903e7", "-1000"},
        {"f90000", "f:0000000000000000"}, {"f98000", "f:8000000000000000"}, {"f93c00", "f:3ff0000000000000"},
        {"fb3ff199999999999a", "f:3ff199999999999a"}, {"f93e00", "f:3ff8000000000000"},
        {"f97bff", "f:40effc0000000000"}, {"fa47c35000", "f:40f86a0000000000"},
        {"fa7f7fffff", "f:47efffffe0000000"}, {"fb7e37e43c8800759c", "f:7e37e43c8800759c"},
        {"f90001", "f:3e70000000000000"}, {"f90400", "f:3f10000000000000"}, {"f9c400", "f:c010000000000000"},
        {"fbc010666666666666", "f:c010666666666666"},
        {"f97c00", "f:7ff0000000000000"}, {"f97e00", "f:nan"}, {"f9fc00", "f:fff0000000000000"},
        {"fa7f800000", "f:7ff0000000000000"}, {"fa7fc00000", "f:nan"}, {"faff800000", "f:fff0000000000000"},
        {"fb7ff0000000000000", "f:7ff0000000000000"}, {"fb7ff8000000000000", "f:nan"},
        {"fbfff0000000000000", "f:fff0000000000000"},
        {"f4", "false"}, {"f5", "true"}, {"f6", "null"}, {"f7", "undefined"},
        // Simple values 16 and 255: libcbor 0.8 refuses every unassigned simple value (so does the codec).
        {"f0", null}, {"f8ff", null},
        {"c074323031332d30332d32315432303a30343a30305a", "0(\"2013-03-21T20:04:00Z\")"},
        {"c11a514b67b0", "1(1363896240)"}, {"c1fb41d452d9ec200000", "1(f:41d452d9ec200000)"},
        {"d74401020304", "23(h'01020304')"}, {"d818456449455446", "24(h'6449455446')"},
        {"d82076687474703a2f2f7777772e6578616d706c652e636f6d", "32(\"http://www.example.com\")"},
        {"40", "h''"}, {"4401020304", "h'01020304'"}, {"60", "\"\""}, {"6161", "\"a\""}, {"6449455446", "\"IETF\""},
        {"62225c", "\"\\x22\\x5c\""}, {"62c3bc", "\"\\xc3\\xbc\""}, {"63e6b0b4", "\"\\xe6\\xb0\\xb4\""},
        {"64f0908591", "\"\\xf0\\x90\\x85\\x91\""},
        {"80", "[]"}, {"83010203", "[1,2,3]"}, {"8301820203820405", "[1,[2,3],[4,5]]"},
        {"98190102030405060708090a0b0c0d0e0f101112131415161718181819", ONE_TO_25},
        {"a0", "{}"}, {"a201020304", "{1:2,3:4}"}, {"a26161016162820203", "{\"a\":1,\"b\":[2,3]}"},
        {"826161a161626163", "[\"a\",{\"b\":\"c\"}]"},
        {"a56161614161626142616361436164614461656145", "{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\",\"e\":\"E\"}"},
        {"5f42010243030405ff", "h'0102030405'"}, {"7f657374726561646d696e67ff", "\"streaming\""},
        {"9fff", "[]"}, {"9f018202039f0405ffff", "[1,[2,3],[4,5]]"}, {"9f01820203820405ff", "[1,[2,3],[4,5]]"},
        {"83018202039f0405ff", "[1,[2,3],[4,5]]"}, {"83019f0203ff820405", "[1,[2,3],[4,5]]"},
        {"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", ONE_TO_25},
        {"bf61610161629f0203ffff", "{\"a\":1,\"b\":[2,3]}"}, {"826161bf61626163ff", "[\"a\",{\"b\":\"c\"}]"},
        {"bf6346756ef563416d7421ff", "{\"Fun\":true,\"Amt\":-2}"},
    };

    /** Not plain values: tags other than the bignums, undefined, simple values, integer map keys. */
    private static boolean isPlain(String expected) {
        return expected != null && !expected.equals("undefined") && !expected.matches("\\d+\\(.*") && !expected.equals("{1:2,3:4}");
    }

    @Test
    void theRfc8949AppendixAExamplesReadAlikeInLibcborAndTheCodec() throws Exception {
        List<String> hex = new ArrayList<>();
        for (String[] example : APPENDIX_A) {
            hex.add(example[0]);
        }
        List<String> libcborReadings = libcbor.decode("appendix-a", hex);
        for (int i = 0; i < APPENDIX_A.length; i++) {
            String input = APPENDIX_A[i][0];
            String expected = APPENDIX_A[i][1];
            if (expected == null) {
                assertTrue(libcborReadings.get(i).startsWith("error"), input + ": libcbor read " + libcborReadings.get(i));
            } else {
                assertEquals(expected, libcborReadings.get(i), "libcbor reading " + input);
            }
            if (isPlain(expected)) {
                assertEquals(expected, DiagnosticText.of(codec.decode(PlainValues.hex(input))), "the codec reading " + input);
            } else {
                PlainValues.assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(PlainValues.hex(input)), input);
            }
        }
    }

    @Test
    void everySpellingOfAnEmptyBignumReadsAlikeInLibcborAndTheCodec() throws Exception {
        String[] tagHeads = {"c3", "d803", "d90003", "da00000003", "db0000000000000003"};
        String[] emptyByteStrings = {"40", "5800", "590000", "5a00000000", "5b0000000000000000"};
        Map<String, String> spellings = new LinkedHashMap<>();
        for (String tag : tagHeads) {
            for (String bytes : emptyByteStrings) {
                spellings.put(tag + bytes, "-1");
                spellings.put(tag.substring(0, tag.length() - 1) + "2" + bytes, "0");
                spellings.put("81" + tag + bytes, "[-1]");
                spellings.put("a16161" + tag + bytes, "{\"a\":-1}");
            }
        }
        List<String> inputs = new ArrayList<>(spellings.keySet());
        List<String> libcborReadings = libcbor.decode("empty-bignums", inputs);
        for (int i = 0; i < inputs.size(); i++) {
            String input = inputs.get(i);
            assertEquals(spellings.get(input), libcborReadings.get(i), "libcbor reading " + input);
            assertEquals(spellings.get(input), DiagnosticText.of(codec.decode(PlainValues.hex(input))), "the codec reading " + input);
        }
    }

    @Test
    void everyHalfPrecisionFloatReadsAlikeInLibcborAndTheCodec() throws Exception {
        // The codec never writes halves, and libcbor 0.8 cannot write subnormal ones: read all 65,536 here.
        List<String> inputs = new ArrayList<>();
        for (int bits = 0; bits <= 0xffff; bits++) {
            inputs.add(String.format("f9%04x", bits));
        }
        List<String> libcborReadings = libcbor.decode("halves", inputs);
        for (int i = 0; i < inputs.size(); i++) {
            assertEquals(libcborReadings.get(i), DiagnosticText.of(codec.decode(PlainValues.hex(inputs.get(i)))), inputs.get(i));
        }
    }

    @Test
    void malformedInputIsRefusedByBoth() throws Exception {
        List<String> inputs = List.of(
                "", "18", "1a000f", "62c080", "63eda080", "6161e2", "7f61c3ff", "820102ff", "9f01", "a16161",
                "5f4101", "c2", "fb3ff1", "1c", "5c", "ff", "0101");
        List<String> libcborReadings = libcbor.decode("malformed", inputs);
        for (int i = 0; i < inputs.size(); i++) {
            String input = inputs.get(i);
            String reading = libcborReadings.get(i);
            assertTrue(reading.startsWith("error"), () -> input + ": libcbor read " + reading);
            PlainValues.assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(PlainValues.hex(input)), input);
        }
    }

    // ---- random plain values, across every head width and kind ----

    private static Object randomValue(RandomGenerator random, int depth) {
        return switch (random.nextInt(depth >= 4 ? 9 : 11)) {
            case 0 -> random.nextInt(4) == 0 ? null : random.nextBoolean();
            case 1, 2 -> randomInteger(random);
            case 3 -> randomBigInteger(random);
            case 4 -> randomFloat(random);
            case 5 -> randomDouble(random);
            case 6, 7 -> randomString(random);
            case 8 -> randomBytes(random);
            case 9 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(20) == 0 ? 30 : random.nextInt(5); i > 0; i--) {
                    list.add(randomValue(random, depth + 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(20) == 0 ? 30 : random.nextInt(5); i > 0; i--) {
                    map.put(randomString(random), randomValue(random, depth + 1));
                }
                yield map;
            }
        };
    }

    /** Lower bounds of the argument widths: immediate, 1, 2, 4 and 8 bytes. */
    private static final long[] WIDTH_STARTS = {0, 24, 0x100, 0x1_0000, 0x1_0000_0000L};
    private static final long[] WIDTH_ENDS = {23, 0xff, 0xffff, 0xffff_ffffL, Long.MAX_VALUE};

    private static Object randomInteger(RandomGenerator random) {
        if (random.nextInt(8) == 0) {
            long[] edges = {0, 23, 24, 255, 256, 65535, 65536, 0xffffffffL, 0x100000000L, Long.MAX_VALUE,
                Long.MIN_VALUE, -1, -24, -25, -256, -257, -65536, -65537, -0x100000000L, -0x100000001L};
            return edges[random.nextInt(edges.length)];
        }
        int width = random.nextInt(WIDTH_STARTS.length);
        long argument = random.nextLong(WIDTH_STARTS[width], WIDTH_ENDS[width]);
        long value = random.nextBoolean() ? argument : -1 - argument;
        // The Java type of the value varies too; all encode the same way.
        if (value == (byte) value && random.nextBoolean()) {
            return (byte) value;
        }
        if (value == (short) value && random.nextBoolean()) {
            return (short) value;
        }
        if (value == (int) value && random.nextBoolean()) {
            return (int) value;
        }
        return value;
    }

    private static BigInteger randomBigInteger(RandomGenerator random) {
        BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        switch (random.nextInt(5)) {
            case 0 -> { // 2^63 .. 2^64-1: major type 0 with a full 8-byte argument
                return BigInteger.ONE.shiftLeft(63).add(randomBits(random, 63));
            }
            case 1 -> { // -2^64 .. -2^63-1: major type 1 with a full 8-byte argument
                return BigInteger.ONE.shiftLeft(63).add(randomBits(random, 63)).not();
            }
            case 2 -> {
                BigInteger[] edges = {two64.subtract(BigInteger.ONE), two64, two64.negate(), two64.negate().subtract(BigInteger.ONE),
                    BigInteger.ONE.shiftLeft(71), BigInteger.ONE.shiftLeft(71).not(), BigInteger.ONE.shiftLeft(255),
                    BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(256).negate(),
                    BigInteger.ONE.shiftLeft(511).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(511).negate()};
                return edges[random.nextInt(edges.length)];
            }
            default -> { // a bignum of 65 .. 511 bits, either sign, its top bit set so the width is exact
                int bits = random.nextInt(65, PlainCodec.MAX_BIG_INTEGER_BITS + 1);
                BigInteger magnitude = randomBits(random, bits - 1).setBit(bits - 1);
                return random.nextBoolean() ? magnitude : magnitude.not();
            }
        }
    }

    private static BigInteger randomBits(RandomGenerator random, int bits) {
        byte[] bytes = new byte[(bits + 7) / 8];
        random.nextBytes(bytes);
        return new BigInteger(1, bytes).shiftRight(bytes.length * 8 - bits);
    }

    private static float randomFloat(RandomGenerator random) {
        return switch (random.nextInt(4)) {
            case 0 -> Float.intBitsToFloat(random.nextInt()); // anything: subnormals, NaNs with payloads
            case 1 -> Float.float16ToFloat((short) random.nextInt()); // a half that widens exactly
            case 2 -> new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, 1.5f, 65504f}[random.nextInt(10)];
            default -> (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-10, 10)));
        };
    }

    private static double randomDouble(RandomGenerator random) {
        return switch (random.nextInt(4)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> randomFloat(random); // a double a single holds exactly
            case 2 -> new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 1.1, -4.1}[random.nextInt(10)];
            default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-300, 300));
        };
    }

    private static String randomString(RandomGenerator random) {
        // One range per UTF-8 length: 1, 2, 3 (both sides of the surrogates) and 4 bytes; controls too.
        int[][] ranges = {{0x20, 0x7e}, {0x00, 0x1f}, {0x80, 0x7ff}, {0x800, 0xd7ff}, {0xe000, 0xffff}, {0x10000, 0x10ffff}};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(30) == 0 ? random.nextInt(24, 400) : random.nextInt(12);
        for (int i = 0; i < length; i++) {
            int[] range = ranges[random.nextInt(ranges.length)];
            text.appendCodePoint(random.nextInt(range[0], range[1] + 1));
        }
        return text.toString();
    }

    private static byte[] randomBytes(RandomGenerator random) {
        int length = switch (random.nextInt(40)) {
            case 0 -> random.nextInt(256, 70_000); // 2- and 4-byte length heads
            case 1, 2 -> random.nextInt(24, 256);
            default -> random.nextInt(24);
        };
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
