package dev.lanehost.callgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/** What the tests expect of decoded values, written independently of the codec's own walk. */
final class PlainValues {

    private PlainValues() {
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static PlainValueException assertFails(PlainValueFailure status, Executable call) {
        return assertFails(status, call, "");
    }

    static PlainValueException assertFails(PlainValueFailure status, Executable call, String why) {
        PlainValueException failure = assertThrows(PlainValueException.class, call, why);
        assertEquals(status, failure.failure(), why + " " + failure.getMessage());
        return failure;
    }

    /** What {@code decode(encode(value))} must give: the normal form of {@code value}. */
    static Object normalised(Object value) {
        if (isFunction(value)) {
            return null;
        }
        return switch (value) {
            case null -> null;
            case Byte b -> (long) b;
            case Short s -> (long) s;
            case Integer i -> (long) i;
            case BigInteger big -> big.bitLength() < 64 ? (Object) big.longValue() : big;
            case Float f -> (double) f;
            case Character c -> String.valueOf(c);
            case StringBuilder text -> text.toString();
            case StringBuffer text -> text.toString();
            case Enum<?> constant -> constant.name();
            case ByteBuffer buffer -> {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.duplicate().get(bytes);
                yield bytes;
            }
            case Record record -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (RecordComponent component : record.getClass().getRecordComponents()) {
                    Object componentValue;
                    try {
                        component.getAccessor().setAccessible(true);
                        componentValue = component.getAccessor().invoke(record);
                    } catch (ReflectiveOperationException e) {
                        throw new AssertionError(e);
                    }
                    if (!isFunction(componentValue)) {
                        map.put(component.getName(), normalised(componentValue));
                    }
                }
                yield map;
            }
            case Map<?, ?> source -> {
                Map<String, Object> map = new LinkedHashMap<>();
                source.forEach((key, entryValue) -> {
                    if (!isFunction(entryValue)) {
                        map.put((String) key, normalised(entryValue));
                    }
                });
                yield map;
            }
            case Collection<?> collection -> {
                List<Object> list = new ArrayList<>();
                collection.forEach(element -> list.add(normalised(element)));
                yield list;
            }
            case byte[] bytes -> bytes;
            case Object array when array.getClass().isArray() -> {
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < Array.getLength(array); i++) {
                    list.add(normalised(Array.get(array, i)));
                }
                yield list;
            }
            default -> value;
        };
    }

    /** The documented rule, restated: not a value type, and a hidden class or a functional interface's implementation. */
    private static boolean isFunction(Object value) {
        if (value == null || value instanceof Boolean || value instanceof Number || value instanceof CharSequence
                || value instanceof Character || value instanceof ByteBuffer || value instanceof Enum<?>
                || value instanceof Record || value instanceof Map<?, ?> || value instanceof Collection<?>
                || value.getClass().isArray()) {
            return false;
        }
        return value.getClass().isHidden() || implementsFunctionalInterface(value.getClass());
    }

    private static boolean implementsFunctionalInterface(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> implemented : c.getInterfaces()) {
                if (implemented.isAnnotationPresent(FunctionalInterface.class) || implementsFunctionalInterface(implemented)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Equal as plain values: exact types, byte arrays by content, map keys in the same order. */
    static void assertPlainEquals(Object expected, Object actual) {
        String difference = difference(expected, actual, "$");
        if (difference != null) {
            fail(difference + "\nexpected: " + describe(expected) + "\nactual:   " + describe(actual));
        }
    }

    private static String difference(Object expected, Object actual, String path) {
        if (expected == null || actual == null) {
            return expected == actual ? null : path + ": " + describe(expected) + " vs " + describe(actual);
        }
        boolean sameShape = expected instanceof List<?> ? actual instanceof List<?>
                : expected instanceof Map<?, ?> ? actual instanceof Map<?, ?>
                : expected.getClass() == actual.getClass();
        if (!sameShape) {
            return path + ": " + expected.getClass().getName() + " vs " + actual.getClass().getName();
        }
        if (expected instanceof byte[] bytes) {
            return Arrays.equals(bytes, (byte[]) actual) ? null : path + ": bytes " + hex(bytes) + " vs " + hex((byte[]) actual);
        }
        if (expected instanceof List<?> list) {
            List<?> other = (List<?>) actual;
            if (list.size() != other.size()) {
                return path + ": " + list.size() + " elements vs " + other.size();
            }
            for (int i = 0; i < list.size(); i++) {
                String inner = difference(list.get(i), other.get(i), path + "[" + i + "]");
                if (inner != null) {
                    return inner;
                }
            }
            return null;
        }
        if (expected instanceof Map<?, ?> map) {
            Map<?, ?> other = (Map<?, ?>) actual;
            if (!new ArrayList<>(map.keySet()).equals(new ArrayList<>(other.keySet()))) {
                return path + ": keys " + map.keySet() + " vs " + other.keySet();
            }
            for (Object key : map.keySet()) {
                String inner = difference(map.get(key), other.get(key), path + "." + key);
                if (inner != null) {
                    return inner;
                }
            }
            return null;
        }
        // Double.equals compares bits: NaN equals NaN, 0.0 differs from -0.0, as a round trip must keep them.
        return expected.equals(actual) ? null : path + ": " + expected + " vs " + actual;
    }

    static String describe(Object value) {
        if (value instanceof byte[] bytes) {
            return "h'" + hex(bytes) + "'";
        }
        if (value instanceof List<?> list) {
            StringBuilder text = new StringBuilder("[");
            for (Iterator<?> i = list.iterator(); i.hasNext(); ) {
                text.append(describe(i.next())).append(i.hasNext() ? ", " : "");
            }
            return text.append(']').toString();
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder text = new StringBuilder("{");
            for (Iterator<? extends Map.Entry<?, ?>> i = map.entrySet().iterator(); i.hasNext(); ) {
                Map.Entry<?, ?> entry = i.next();
                text.append('"').append(entry.getKey()).append("\": ").append(describe(entry.getValue())).append(i.hasNext() ? ", " : "");
            }
            return text.append('}').toString();
        }
        return value instanceof String ? '"' + (String) value + '"' : String.valueOf(value);
    }
}
