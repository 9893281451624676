package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link PlainCodec#copy}: a Java caller's value copied straight into decoding's normal form must be exactly what
 * {@code decode(encode(v))} gives, with the encoding's exact length, at every CBOR boundary (head sizes, integer
 * and float widths, UTF-8 widths), and must fail where encoding fails, with the same status and message.
 */
class PlainCodecCopyTest {
    private final PlainCodec codec = new PlainCodec();

    enum Mode { ON, OFF }

    record Sample(String name, long id, List<Integer> scores, Mode mode, Supplier<String> label, byte[] blob) {
    }

    @Test
    void everyBoundaryCopiesAsItsEncodingDecodes() throws PlainValueException {
        List<Object> corpus = new ArrayList<>(Arrays.asList(null, true, false, 'x', new StringBuilder("sb"), Mode.OFF));
        for (long n : new long[] {0, 1, 23, 24, 255, 256, 65_535, 65_536, 0xFFFF_FFFFL, 0x1_0000_0000L, Long.MAX_VALUE}) {
            corpus.add(n);
            corpus.add(-n);
            corpus.add(-n - 1);
        }
        corpus.addAll(List.of((byte) -7, (short) 300, 70_000, Long.MIN_VALUE));
        corpus.addAll(List.of(BigInteger.TWO.pow(63), BigInteger.TWO.pow(64).subtract(BigInteger.ONE),
                BigInteger.TWO.pow(64), BigInteger.TWO.pow(64).negate(), BigInteger.TWO.pow(300).negate().add(BigInteger.TEN),
                BigInteger.valueOf(42)));
        corpus.addAll(List.of(0.0f, -0.0f, 1.5f, Float.NaN, Float.NEGATIVE_INFINITY, 0.1, -0.0, Double.MAX_VALUE, Double.NaN));
        corpus.addAll(List.of("", "a", "x".repeat(23), "y".repeat(24), "z".repeat(300), "é", "€", "😀", "mixed é€😀 text"));
        corpus.addAll(List.of(new byte[0], new byte[] {1, 2, 3}, new byte[70_000]));
        ByteBuffer heap = ByteBuffer.wrap(new byte[] {9, 8, 7, 6}).position(1);
        ByteBuffer direct = ByteBuffer.allocateDirect(5).put(new byte[] {1, 2, 3, 4, 5}).flip().position(2);
        corpus.addAll(List.of(heap, direct));
        corpus.addAll(List.of(new int[] {1, -300, 70_000}, new long[] {Long.MIN_VALUE}, new short[] {-1}, new double[] {2.5},
                new float[] {0.25f}, new boolean[] {true, false}, new Object[] {null, "o", 1}));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put("a", List.of("nested", Map.of("k", 2.0f)));
        map.put("dropped", (Runnable) () -> { });
        map.put("k".repeat(30), null);
        corpus.add(map);
        Set<String> sorted = new TreeSet<>(List.of("c", "a", "b"));
        corpus.add(sorted);
        corpus.add(new Sample("s", 7, List.of(1, 2), Mode.ON, () -> "gone", new byte[] {5}));
        corpus.add(List.of(List.of(), Map.of(), new ArrayList<>(List.of((Runnable) () -> { }))));
        for (int size : new int[] {23, 24, 256}) {
            corpus.add(new ArrayList<>(java.util.Collections.nCopies(size, 1)));
        }
        for (Object value : corpus) {
            byte[] encoded = codec.encode(value);
            PlainCodec.Copy copy = codec.copy(value);
            assertPlainEquals(codec.decode(encoded), copy.value());
            assertEquals(encoded.length, copy.encodedLength(), () -> "length of " + PlainValues.describe(value) + " = " + hex(encoded));
        }
    }

    /**
     * Leaves and lists of leaves in the JDK's own lists are copied without the walk ({@code FlatCopy}), to the walk's
     * copy and length at every boundary; every other value, and a string the walk refuses, is left to the walk.
     */
    @Test
    void flatValuesCopyWithoutTheWalkToTheWalksCopyAndLength() throws PlainValueException {
        List<Object> leaves = new ArrayList<>(Arrays.asList(null, true, false, 0.1, -0.0, Double.NaN, Double.MAX_VALUE));
        for (long n : new long[] {0, 1, 23, 24, 255, 256, 65_535, 65_536, 0xFFFF_FFFFL, 0x1_0000_0000L, Long.MAX_VALUE}) {
            leaves.addAll(Arrays.asList(n, -n, -n - 1));
            if (n <= Integer.MAX_VALUE) {
                leaves.addAll(Arrays.asList((int) n, (int) -n, (int) (-n - 1)));
            }
        }
        leaves.addAll(List.of(Integer.MIN_VALUE, Long.MIN_VALUE));
        leaves.addAll(List.of("", "a", "x".repeat(23), "y".repeat(24), "z".repeat(300), "é", "€", "😀", "mixed é€😀 text"));
        List<Object> flat = new ArrayList<>(leaves);
        List<Object> nonNull = leaves.stream().filter(java.util.Objects::nonNull).toList();
        flat.addAll(List.of(new ArrayList<>(leaves), Arrays.asList(leaves.toArray()), List.of(), List.of(7), List.of(7, "frame"),
                List.copyOf(nonNull), new ArrayList<>(java.util.Collections.nCopies(24, "x"))));
        for (Object value : flat) {
            PlainCodec.Copy fast = FlatCopy.of(value);
            assertTrue(fast != null, () -> PlainValues.describe(value) + " should copy without the walk");
            PlainCodec.Copy walked = codec.walkCopy(value);
            assertPlainEquals(walked.value(), fast.value());
            assertEquals(walked.encodedLength(), fast.encodedLength(), () -> "length of " + PlainValues.describe(value));
            assertPlainEquals(codec.decode(codec.encode(value)), fast.value());
            if (value instanceof List<?>) {
                assertEquals(ArrayList.class, fast.value().getClass());
                assertNotSame(value, fast.value());
            }
        }
        class OwnList extends ArrayList<Object> {
        }
        List<Object> walkedOnly = List.of((short) 3, 2.5f, 'c', new byte[] {1}, "lone \uD800", List.of("lone \uDC00"),
                List.of(List.of(1)), List.of(1, Map.of("k", 2)), new OwnList(), java.util.Collections.nCopies(3, 1),
                new java.util.LinkedList<>(List.of(1)), Map.of("k", 1));
        for (Object value : walkedOnly) {
            assertEquals(null, FlatCopy.of(value), () -> PlainValues.describe(value) + " is the walk's");
        }
    }

    @Test
    void aCopySharesNoBytesWithTheValue() throws PlainValueException {
        byte[] blob = {1, 2, 3};
        List<Object> value = new ArrayList<>(List.of("keep", blob));
        Object copied = codec.copy(value).value();
        blob[0] = 99;
        value.add("later");
        assertPlainEquals(List.of("keep", new byte[] {1, 2, 3}), copied);
        assertNotSame(blob, ((List<?>) copied).get(1));
    }

    @Test
    void aCopyFailsWhereEncodingFailsWithTheSameStatusAndMessage() {
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        List<Object> refused = List.of(cycle, Map.of(1, "not a string key"), "lone \uD800 surrogate",
                BigInteger.TWO.pow(600), new char[] {'c'}, new Object());
        for (Object value : refused) {
            PlainValueException encoding = assertThrows(PlainValueException.class, () -> codec.encode(value));
            PlainValueException copying = assertThrows(PlainValueException.class, () -> codec.copy(value));
            assertEquals(encoding.failure(), copying.failure());
            assertEquals(encoding.getMessage(), copying.getMessage());
        }
    }

    @Test
    void valuesNestedPastTheWalksFirstStacksCopyAndFailAtTheLimitWithTheirPath() throws PlainValueException {
        Object deepest = "bottom";
        for (int level = 0; level < PlainCodec.MAX_DEPTH; level++) { // lists and maps by turns, exactly at the limit
            deepest = level % 2 == 0 ? List.of(deepest) : Map.of("k" + level, deepest);
        }
        PlainCodec.Copy copy = codec.copy(deepest);
        byte[] encoded = codec.encode(deepest);
        assertPlainEquals(codec.decode(encoded), copy.value());
        assertEquals(encoded.length, copy.encodedLength());

        PlainValueException tooDeep = assertThrows(PlainValueException.class, () -> codec.copy(List.of(
                Map.of("a", List.of(Map.of("b", List.of(Map.of("c", List.of(new Object())))))))));
        assertTrue(tooDeep.getMessage().startsWith("unsupported type java.lang.Object at $[0].a[0].b[0].c[0] "),
                tooDeep::getMessage);
        Object pastTheLimit = List.of(deepest);
        PlainValueException copying = assertThrows(PlainValueException.class, () -> codec.copy(pastTheLimit));
        PlainValueException encoding = assertThrows(PlainValueException.class, () -> codec.encode(pastTheLimit));
        assertTrue(copying.getMessage().contains("nests deeper than " + PlainCodec.MAX_DEPTH), copying::getMessage);
        assertEquals(encoding.getMessage(), copying.getMessage());
    }

    /** A record whose accessor copies its value with a codec: a walk inside a walk, on one thread. */
    record Copying(Object inner) {
        @Override
        public Object inner() {
            try {
                return new PlainCodec().copy(inner).value();
            } catch (PlainValueException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void aCopyInsideACopyAndACopyAfterAFailedOneAreWhole() throws PlainValueException {
        Object value = List.of("before", new Copying(List.of(1, Map.of("k", "v"))), "after");
        Object copied = codec.copy(value).value();
        assertPlainEquals(List.of("before", Map.of("inner", List.of(1L, Map.of("k", "v"))), "after"), copied);

        List<Object> cycle = new ArrayList<>();
        cycle.add(List.of(Map.of("deep", cycle)));
        assertThrows(PlainValueException.class, () -> codec.copy(cycle)); // fails three containers down
        PlainCodec.Copy after = codec.copy(List.of("x", 2));
        assertPlainEquals(List.of("x", 2L), after.value());
        assertEquals(codec.encode(List.of("x", 2)).length, after.encodedLength());
    }
}
