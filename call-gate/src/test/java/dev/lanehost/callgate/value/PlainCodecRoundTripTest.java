package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static dev.lanehost.callgate.value.PlainValues.normalised;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class PlainCodecRoundTripTest {

    private final PlainCodec codec = new PlainCodec();

    record Point(int x, int y) {
    }

    record User(String name, List<String> roles, Point home, Status status, byte[] avatar) {
    }

    enum Status { ACTIVE, SUSPENDED }

    /** A constant with a body is an anonymous subclass; it still encodes as its name. */
    enum Operation implements Function<Long, Long> {
        NEGATE {
            @Override
            public Long apply(Long value) {
                return -value;
            }
        }
    }

    record Box(Object inner) {
    }

    record Handler(String name, Runnable onCall, Supplier<String> label) {
    }

    /** A record that also implements a functional interface is still a value: records are checked first. */
    record Constant(String value) implements Supplier<String> {
        @Override
        public String get() {
            return value;
        }
    }

    static final class NamedComparator implements Comparator<String> {
        @Override
        public int compare(String a, String b) {
            return a.compareTo(b);
        }
    }

    /** A record that throws from every method the codec must not call. */
    record Touchy(String name) {
        @Override
        public String toString() {
            throw new AssertionError("toString ran");
        }

        @Override
        public int hashCode() {
            throw new AssertionError("hashCode ran");
        }

        @Override
        public boolean equals(Object other) {
            throw new AssertionError("equals ran");
        }
    }

    private Object roundTrip(Object value) throws PlainValueException {
        Object decoded = codec.decode(codec.encode(value));
        assertPlainEquals(normalised(value), decoded);
        return decoded;
    }

    @Test
    void scalarsRoundTripInTheirNormalForm() throws PlainValueException {
        assertNull(roundTrip(null));
        assertEquals(true, roundTrip(true));
        assertEquals(false, roundTrip(false));
        assertEquals(7L, roundTrip((byte) 7));
        assertEquals(-300L, roundTrip((short) -300));
        assertEquals(123456789L, roundTrip(123456789));
        for (long edge : new long[] {0, 23, 24, 255, 256, 65535, 65536, 4294967295L, 4294967296L, -1, -24, -25,
                -256, -257, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertEquals(edge, roundTrip(edge));
        }
        assertEquals(0.1f, (double) roundTrip(0.1f), 0.0, "a float widens exactly, not through its decimal text");
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((double) roundTrip(-0.0)));
        roundTrip(Double.NaN);
        roundTrip(Double.POSITIVE_INFINITY);
        roundTrip(Double.MIN_VALUE);
        roundTrip(Float.MAX_VALUE);
        assertEquals("", roundTrip(""));
        assertEquals("héllo wörld, 水, 😀", roundTrip("héllo wörld, 水, 😀"));
        assertEquals("x", roundTrip('x'));
        assertEquals("built", roundTrip(new StringBuilder("built")));
        assertEquals("buffered", roundTrip(new StringBuffer("buffered")));
    }

    @Test
    void integersOutside64BitsAreBigIntegersAndInsideAreLongs() throws PlainValueException {
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        assertEquals(5L, roundTrip(BigInteger.valueOf(5)));
        assertEquals(Long.MIN_VALUE, roundTrip(BigInteger.valueOf(Long.MIN_VALUE)));
        assertEquals(BigInteger.ONE.shiftLeft(63), roundTrip(BigInteger.ONE.shiftLeft(63)));
        assertEquals(twoTo64.subtract(BigInteger.ONE), roundTrip(twoTo64.subtract(BigInteger.ONE)));
        assertEquals(twoTo64.negate(), roundTrip(twoTo64.negate()));
        assertEquals(twoTo64, roundTrip(twoTo64));
        BigInteger largest = BigInteger.ONE.shiftLeft(PlainCodec.MAX_BIG_INTEGER_BITS).subtract(BigInteger.ONE);
        assertEquals(largest, roundTrip(largest));
        BigInteger smallest = BigInteger.ONE.shiftLeft(PlainCodec.MAX_BIG_INTEGER_BITS).negate();
        assertEquals(smallest, roundTrip(smallest));
    }

    @Test
    void byteStringsRoundTripAsByteArrays() throws PlainValueException {
        roundTrip(new byte[0]);
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 0xa5);
        roundTrip(large);
        ByteBuffer heap = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}).position(2);
        assertPlainEquals(new byte[] {3, 4, 5}, roundTrip(heap));
        assertEquals(2, heap.position(), "encoding reads the remaining bytes without moving the position");
        ByteBuffer direct = ByteBuffer.allocateDirect(3).put(new byte[] {9, 8, 7}).flip();
        assertPlainEquals(new byte[] {9, 8, 7}, roundTrip(direct));
        assertPlainEquals(new byte[] {3, 4, 5}, roundTrip(heap.asReadOnlyBuffer()));
    }

    @Test
    void listsArraysAndSetsBecomeLists() throws PlainValueException {
        roundTrip(List.of());
        roundTrip(List.of(1, "two", 3.0));
        roundTrip(new ArrayDeque<>(List.of("a", "b")));
        roundTrip(new LinkedHashSet<>(List.of("z", "a", "m")));
        roundTrip(new Object[] {1, null, new Object[] {"nested"}});
        roundTrip(new int[] {1, -2, 3});
        roundTrip(new long[] {Long.MAX_VALUE});
        roundTrip(new short[] {-5});
        roundTrip(new double[] {0.5, Double.NaN});
        roundTrip(new float[] {1.5f});
        roundTrip(new boolean[] {true, false});
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        roundTrip(withNull);
    }

    @Test
    void mapsKeepTheirKeyOrder() throws PlainValueException {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("zebra", 1);
        map.put("apple", 2);
        map.put("mango", List.of(3));
        map.put("", "empty key");
        map.put("two words \"quoted\"", null);
        Object decoded = roundTrip(map);
        assertInstanceOf(LinkedHashMap.class, decoded);
        assertEquals(List.of("zebra", "apple", "mango", "", "two words \"quoted\""), List.copyOf(((Map<?, ?>) decoded).keySet()));
        roundTrip(new TreeMap<>(Map.of("b", 2, "a", 1)));
        roundTrip(Map.of());
    }

    @Test
    void recordsBecomeMapsOfTheirComponentsInOrder() throws PlainValueException {
        User user = new User("ada", List.of("admin", "ops"), new Point(3, -4), Status.ACTIVE, new byte[] {1, 2});
        Object decoded = roundTrip(user);
        assertEquals(List.of("name", "roles", "home", "status", "avatar"), List.copyOf(((Map<?, ?>) decoded).keySet()));
        assertEquals(Map.of("x", 3L, "y", -4L), ((Map<?, ?>) decoded).get("home"));
        assertEquals("ACTIVE", ((Map<?, ?>) decoded).get("status"));
    }

    @Test
    void enumsBecomeTheirNames() throws PlainValueException {
        assertEquals("SUSPENDED", roundTrip(Status.SUSPENDED));
        assertEquals("NEGATE", roundTrip(Operation.NEGATE), "an enum implementing Function is still an enum");
    }

    @Test
    void functionsAreOmittedFromMapsAndRecordsAndNullInListsAndAtTheTop() throws PlainValueException {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("lambda", (Runnable) () -> { });
        map.put("kept", 1);
        map.put("methodReference", (Function<String, Integer>) String::length);
        map.put("anonymous", new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return 0;
            }
        });
        map.put("namedFunctionalClass", new NamedComparator());
        map.put("record", new Constant("c"));
        assertEquals(Map.of("kept", 1L, "record", Map.of("value", "c")), codec.decode(codec.encode(map)));

        Handler handler = new Handler("h", () -> { }, () -> "label");
        assertEquals(Map.of("name", "h"), codec.decode(codec.encode(handler)));

        List<Object> list = new ArrayList<>(List.of(1));
        list.add((Supplier<String>) () -> "x");
        list.add(2);
        assertPlainEquals(Arrays.asList(1L, null, 2L), codec.decode(codec.encode(list)));

        assertEquals("f6", hex(codec.encode((Runnable) () -> { })), "a function at the top encodes as null");
    }

    @Test
    void theSameObjectTwiceIsNotACycle() throws PlainValueException {
        List<Object> shared = List.of(1, 2);
        roundTrip(List.of(shared, shared, Map.of("again", shared)));
    }

    @Test
    void encodingRunsNoneOfTheValuesOtherMethods() throws PlainValueException {
        Touchy touchy = new Touchy("careful");
        assertEquals(List.of(Map.of("name", "careful"), Map.of("name", "careful")),
                codec.decode(codec.encode(List.of(touchy, touchy))));
    }

    @Test
    void nestingUpToTheLimitRoundTrips() throws PlainValueException {
        Object value = "bottom";
        for (int i = 0; i < PlainCodec.MAX_DEPTH; i++) {
            value = switch (i % 4) {
                case 0 -> List.of(value);
                case 1 -> Map.of("k", value);
                case 2 -> new Object[] {value};
                default -> new Box(value);
            };
        }
        roundTrip(value);
    }

    @Test
    void longStringsAndKeysAreWrittenWithDefiniteLengths() throws PlainValueException {
        String text = "é".repeat(10_000); // 20,000 UTF-8 bytes: Jackson's writeString would chunk it
        byte[] encoded = codec.encode(text);
        assertEquals("794e20", hex(Arrays.copyOf(encoded, 3)), "major type 3 with a 2-byte length of 20,000");
        assertEquals(text, codec.decode(encoded));
        byte[] keyed = codec.encode(Map.of(text, 1));
        assertEquals("a1794e20", hex(Arrays.copyOf(keyed, 4)));
        assertEquals(Map.of(text, 1L), codec.decode(keyed));
    }

    @Test
    void decodingReadsTheRegionOnly() throws PlainValueException {
        byte[] framed = hex("ffff 8201820203 ffff");
        assertEquals(List.of(1L, List.of(2L, 3L)), codec.decode(framed, 2, 5));
    }
}
