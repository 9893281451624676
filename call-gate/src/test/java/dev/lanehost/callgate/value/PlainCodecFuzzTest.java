package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static dev.lanehost.callgate.value.PlainValues.normalised;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.Test;

/**
 * Decoding hostile input: whatever the bytes, {@code decode} returns a plain value or throws
 * {@code PlainValueException(INVALID_ARGUMENT)}, and whatever it returns encodes and decodes to itself.
 * Seeded, so a failure reproduces; the failing input is printed in hex.
 */
class PlainCodecFuzzTest {

    private static final long SEED = 0x5EED_CB0AL;
    private static final int RANDOM_INPUTS = 20_000;
    private static final int VALUE_TREES = 3_000;
    private static final int MUTANTS_PER_TREE = 10;

    /** Heads that steer random input into the interesting paths: lengths, indefinite markers, tags, breaks. */
    private static final int[] INTERESTING_BYTES = {
        0x00, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1f, 0x20, 0x38, 0x3b, 0x40, 0x41, 0x58, 0x5a, 0x5b, 0x5f,
        0x60, 0x61, 0x62, 0x78, 0x7a, 0x7b, 0x7f, 0x80, 0x81, 0x82, 0x98, 0x9a, 0x9b, 0x9f, 0xa0, 0xa1, 0xa2,
        0xb8, 0xba, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xd8, 0xdf, 0xe0, 0xf0, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
        0xf9, 0xfa, 0xfb, 0xfc, 0xff, 0x7f, 0x80, 0xc3, 0xed, 0xf0
    };

    private final PlainCodec codec = new PlainCodec();

    enum Colour { RED, GREEN }

    record Pair(Object left, Object right) {
    }

    record Tagged(String tag, Object value, Supplier<String> describe) {
    }

    @Test
    void randomBytesDecodeToAValueOrAreInvalidArguments() {
        RandomGenerator random = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED);
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            byte[] input = new byte[random.nextInt(random.nextBoolean() ? 8 : 64)];
            boolean steered = random.nextBoolean();
            for (int j = 0; j < input.length; j++) {
                input[j] = (byte) (steered && random.nextInt(3) > 0
                        ? INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)]
                        : random.nextInt(256));
            }
            decodeOrRefuse(input, "random input " + i);
        }
    }

    @Test
    void validEncodingsAreTheBytesJacksonWritesForTheSameWalk() throws Exception {
        RandomGenerator random = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED + 2);
        for (int i = 0; i < VALUE_TREES; i++) {
            Object value = randomValue(random, 0);
            byte[] encoded = codec.encode(value);
            byte[] jackson = JacksonCborSink.encode(value);
            assertEquals(hex(jackson), hex(encoded), "tree " + i);
        }
    }

    @Test
    void validEncodingsRoundTripAndTheirMutantsDecodeOrAreInvalidArguments() throws PlainValueException {
        RandomGenerator random = RandomGeneratorFactory.of("L64X128MixRandom").create(SEED + 1);
        for (int i = 0; i < VALUE_TREES; i++) {
            Object value = randomValue(random, 0);
            byte[] encoded = codec.encode(value);
            assertPlainEquals(normalised(value), codec.decode(encoded));
            PlainCodec.Copy copy = codec.copy(value); // the Java callers' path: no bytes, the same value and length
            assertPlainEquals(codec.decode(encoded), copy.value());
            assertEquals(encoded.length, copy.encodedLength(), () -> "encoded length of " + hex(encoded));
            for (int j = 0; j < MUTANTS_PER_TREE; j++) {
                decodeOrRefuse(mutate(encoded, random), "mutant " + j + " of tree " + i + " (" + hex(encoded) + ")");
            }
        }
    }

    private void decodeOrRefuse(byte[] input, String origin) {
        Object decoded;
        try {
            decoded = codec.decode(input);
        } catch (PlainValueException e) {
            assertEquals(PlainValueFailure.INVALID_ARGUMENT, e.failure(), () -> origin + ": " + hex(input) + ": " + e.getMessage());
            return;
        } catch (Throwable escaped) {
            fail(origin + " (seed " + SEED + "): " + escaped + " escaped decoding " + hex(input), escaped);
            return;
        }
        try {
            assertPlainEquals(decoded, codec.decode(codec.encode(decoded)));
        } catch (PlainValueException e) {
            fail(origin + ": decoded " + hex(input) + " but could not encode the result: " + e.getMessage(), e);
        }
    }

    private static byte[] mutate(byte[] valid, RandomGenerator random) {
        byte[] bytes = valid.clone();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            int at = random.nextInt(bytes.length + 1);
            bytes = switch (random.nextInt(7)) {
                case 0 -> { // flip a bit
                    if (at < bytes.length) {
                        bytes[at] ^= (byte) (1 << random.nextInt(8));
                    }
                    yield bytes;
                }
                case 1 -> Arrays.copyOf(bytes, at); // truncate
                case 2 -> insert(bytes, at, new byte[] {(byte) INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)]});
                case 3 -> { // delete a range
                    int end = Math.min(bytes.length, at + 1 + random.nextInt(4));
                    byte[] shorter = new byte[bytes.length - (end - at)];
                    System.arraycopy(bytes, 0, shorter, 0, at);
                    System.arraycopy(bytes, end, shorter, at, bytes.length - end);
                    yield shorter;
                }
                case 4 -> { // a head byte where anything was
                    if (at < bytes.length) {
                        bytes[at] = (byte) INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                    }
                    yield bytes;
                }
                case 5 -> { // a huge length: 0xff over up to four argument bytes
                    for (int i = at; i < Math.min(bytes.length, at + 1 + random.nextInt(4)); i++) {
                        bytes[i] = (byte) 0xff;
                    }
                    yield bytes;
                }
                default -> { // repeat a slice
                    int end = Math.min(bytes.length, at + 1 + random.nextInt(8));
                    yield insert(bytes, at, Arrays.copyOfRange(bytes, at, end));
                }
            };
        }
        return bytes;
    }

    private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
        byte[] longer = new byte[bytes.length + inserted.length];
        System.arraycopy(bytes, 0, longer, 0, at);
        System.arraycopy(inserted, 0, longer, at, inserted.length);
        System.arraycopy(bytes, at, longer, at + inserted.length, bytes.length - at);
        return longer;
    }

    private static Object randomValue(RandomGenerator random, int depth) {
        int kinds = depth >= 5 ? 12 : 17; // deep down, only scalars
        return switch (random.nextInt(kinds)) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> random.nextLong(-30, 30);
            case 3 -> randomEdgeInteger(random);
            case 4 -> randomBigInteger(random);
            case 5 -> randomDouble(random);
            case 6 -> (float) randomDouble(random);
            case 7, 8 -> randomString(random);
            case 9 -> randomBytes(random, random.nextInt(24));
            case 10 -> Colour.values()[random.nextInt(2)];
            case 11 -> (Supplier<String>) () -> "not a value";
            case 12 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    list.add(randomValue(random, depth + 1));
                }
                yield list;
            }
            case 13 -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    map.put(randomString(random), randomValue(random, depth + 1));
                }
                yield map;
            }
            case 14 -> random.nextBoolean()
                    ? new Pair(randomValue(random, depth + 1), randomValue(random, depth + 1))
                    : new Tagged(randomString(random), randomValue(random, depth + 1), () -> "omitted");
            case 15 -> new Object[] {randomValue(random, depth + 1), randomValue(random, depth + 1)};
            default -> random.nextBoolean() ? new int[] {random.nextInt(), -1} : new double[] {random.nextDouble()};
        };
    }

    private static Object randomEdgeInteger(RandomGenerator random) {
        long[] edges = {0, 23, 24, 255, 256, 65535, 65536, 0xffffffffL, 0x100000000L, Long.MAX_VALUE, Long.MIN_VALUE, -24, -25, -257};
        return switch (random.nextInt(4)) {
            case 0 -> (byte) random.nextInt();
            case 1 -> (short) random.nextInt();
            case 2 -> random.nextInt();
            default -> edges[random.nextInt(edges.length)];
        };
    }

    private static BigInteger randomBigInteger(RandomGenerator random) {
        BigInteger magnitude = new BigInteger(1, randomBytes(random, 1 + random.nextInt(PlainCodec.MAX_BIGNUM_BYTES - 1)));
        BigInteger value = random.nextBoolean() ? magnitude : magnitude.negate();
        return value.bitLength() <= PlainCodec.MAX_BIG_INTEGER_BITS ? value : value.shiftRight(1);
    }

    private static double randomDouble(RandomGenerator random) {
        double[] specials = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE};
        return random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)] : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-10, 10));
    }

    private static String randomString(RandomGenerator random) {
        int[][] ranges = {{0x20, 0x7e}, {0x00, 0x1f}, {0xa0, 0x7ff}, {0x800, 0xd7ff}, {0xe000, 0xfffd}, {0x10000, 0x10ffff}};
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(random.nextInt(20) == 0 ? 300 : 8); i > 0; i--) {
            int[] range = ranges[random.nextInt(ranges.length)];
            text.appendCodePoint(random.nextInt(range[0], range[1] + 1));
        }
        return text.toString();
    }

    private static byte[] randomBytes(RandomGenerator random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
