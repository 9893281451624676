package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertFails;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PlainCodecEncodeFailureTest {

    private final PlainCodec codec = new PlainCodec();

    record Node(String name, List<Object> children) {
    }

    record Holder(Object value) {
    }

    record Failing(String name) {
        @Override
        public String name() {
            throw new IllegalStateException("no name today");
        }
    }

    record Exhausting(String name) {
        @Override
        public String name() {
            throw new OutOfMemoryError("simulated");
        }
    }

    /** A functional shape without the annotation: a lambda of it is hidden, an anonymous class is not. */
    interface Callback {
        void call();
    }

    static final class BigIntegerSubclass extends BigInteger {
        BigIntegerSubclass() {
            super("1");
        }
    }

    /** Claims three elements and yields two: what a collection mutated during encoding looks like. */
    static final class ShrinkingCollection extends AbstractCollection<Object> {
        @Override
        public Iterator<Object> iterator() {
            return List.<Object>of(1, 2).iterator();
        }

        @Override
        public int size() {
            return 3;
        }
    }

    static final class ThrowingCollection extends AbstractCollection<Object> {
        private final Throwable failure;

        ThrowingCollection(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public Iterator<Object> iterator() {
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public Object next() {
                    if (failure instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw (Error) failure;
                }
            };
        }

        @Override
        public int size() {
            return 1;
        }
    }

    private PlainValueException assertNotSerializable(Object value, String... expectedInMessage) {
        PlainValueException failure = assertFails(PlainValueFailure.NOT_SERIALIZABLE, () -> codec.encode(value));
        for (String expected : expectedInMessage) {
            assertTrue(failure.getMessage().contains(expected), () -> "\"" + expected + "\" in: " + failure.getMessage());
        }
        return failure;
    }

    @Test
    void aListContainingItselfIsACycle() {
        List<Object> list = new ArrayList<>();
        list.add(1);
        list.add(list);
        assertNotSerializable(Map.of("items", list), "cycle", "$.items[1]", "ancestor at $.items");
    }

    @Test
    void aMapContainingItselfIsACycle() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", "loop");
        map.put("self", map);
        assertNotSerializable(List.of(map), "cycle", "$[0].self", "ancestor at $[0]");
    }

    @Test
    void aRecordReachingItselfThroughAListIsACycle() {
        Node root = new Node("root", new ArrayList<>());
        root.children().add(new Node("leaf", List.of()));
        root.children().add(root);
        assertNotSerializable(root, "cycle", "$.children[1]", "ancestor at $");
    }

    @Test
    void anArrayContainingItselfIsACycle() {
        Object[] array = new Object[2];
        array[1] = array;
        assertNotSerializable(array, "cycle", "$[1]");
    }

    @Test
    void nestingPastTheLimitIsRefused() {
        Object value = 1;
        for (int i = 0; i <= PlainCodec.MAX_DEPTH; i++) {
            value = i % 2 == 0 ? List.of(value) : new Holder(value);
        }
        assertNotSerializable(value, "nests deeper than 64", "$[0].value[0]");
    }

    @Test
    void unsupportedTypesAreNamedWithTheirPath() {
        Map<String, Object> users = new LinkedHashMap<>();
        users.put("users", List.of(Map.of("name", "ada"), Map.of("name", "bob"), Map.of("name", "cy"),
                Map.of("name", new Object())));
        assertNotSerializable(users, "unsupported type java.lang.Object", "$.users[3].name");
        assertNotSerializable(new Holder(new BigDecimal("1.5")), "java.math.BigDecimal", "$.value");
        assertNotSerializable(List.of(Optional.empty()), "java.util.Optional", "$[0]");
        assertNotSerializable(new char[] {'a'}, "[C", "$");
        assertNotSerializable(new AtomicInteger(1), "java.util.concurrent.atomic.AtomicInteger");
        assertNotSerializable(new BigIntegerSubclass(), BigIntegerSubclass.class.getName());
        assertNotSerializable(Map.of("timeout", java.time.Duration.ofSeconds(1)), "java.time.Duration", "$.timeout");
        assertNotSerializable(Map.of("weird key!", new Object()), "$[\"weird key!\"]");
    }

    @Test
    void anAnonymousClassOfAnUnannotatedInterfaceIsNotAFunction() {
        Callback anonymous = new Callback() {
            @Override
            public void call() {
            }
        };
        assertNotSerializable(Map.of("callback", anonymous), "$.callback");
    }

    @Test
    void aLambdaOfAnUnannotatedInterfaceIsAFunction() throws PlainValueException {
        Callback lambda = () -> { };
        assertEquals(Map.of(), codec.decode(codec.encode(Map.of("callback", lambda))));
    }

    @Test
    void nonStringKeysAreRefusedNamingTheirType() {
        assertNotSerializable(Map.of("outer", Map.of(1, "one")), "key of type java.lang.Integer", "the map at $.outer");
        Map<Object, Object> nullKey = new HashMap<>();
        nullKey.put(null, "x");
        assertNotSerializable(List.of(nullKey), "null key", "$[0]");
    }

    @Test
    void unpairedSurrogatesCannotBeWritten() {
        assertNotSerializable(Map.of("text", "a\ud800b"), "unpaired surrogate", "$.text");
        assertNotSerializable(Map.of("end\udc00", 1), "map key", "unpaired surrogate");
        assertNotSerializable('\ud800', "unpaired surrogate");
    }

    @Test
    void integersBeyondTheLimitAreRefused() {
        BigInteger tooLarge = BigInteger.ONE.shiftLeft(PlainCodec.MAX_BIG_INTEGER_BITS);
        assertNotSerializable(List.of(tooLarge), "512 bits", "$[0]");
        assertNotSerializable(tooLarge.negate().subtract(BigInteger.ONE), "512 bits");
    }

    @Test
    void aThrowingAccessorIsNotSerializable() {
        PlainValueException failure = assertNotSerializable(List.of(new Failing("x")), "$[0].name", "IllegalStateException",
                "no name today");
        assertTrue(failure.getCause() instanceof IllegalStateException);
    }

    @Test
    void anAccessorRunningOutOfMemoryIsOutOfMemory() {
        assertFails(PlainValueFailure.OUT_OF_MEMORY, () -> codec.encode(new Exhausting("x")));
    }

    @Test
    void aCollectionChangingWhileEncodedIsRefused() {
        assertNotSerializable(Map.of("shrinking", new ShrinkingCollection()), "changed while it was being encoded", "$.shrinking");
    }

    @Test
    void aCollectionWhoseIteratorThrowsIsNotSerializable() {
        assertNotSerializable(Map.of("c", new ThrowingCollection(new UnsupportedOperationException("nope"))),
                "UnsupportedOperationException", "$.c[0]");
        assertNotSerializable(List.of(new ThrowingCollection(new AssertionError("an Error, not a VirtualMachineError"))),
                "AssertionError", "$[0][0]");
    }

    @Test
    void runningOutOfMemoryWhileEncodingIsOutOfMemory() {
        PlainValueException failure = assertFails(PlainValueFailure.OUT_OF_MEMORY,
                () -> codec.encode(Map.of("c", new ThrowingCollection(new OutOfMemoryError("simulated")))));
        assertTrue(failure.getMessage().contains("$.c[0]"), failure.getMessage());
    }
}
