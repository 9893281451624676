package dev.lanehost.callgate.value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link PlainCodec#copy} of the values most gate calls pass and return, without the walk: a leaf ({@code null}, a
 * {@code Boolean}, an {@code Integer} or {@code Long}, a {@code Double}, a {@code String}) or one list of leaves, the
 * list a JDK list whose reading runs no code of the caller's ({@code ArrayList}, {@code List.of}, {@code Arrays.asList}).
 * The copy and its length are the walk's, to the byte; anything else, and a string the walk would refuse (an unpaired
 * surrogate), is left to the walk, which names the failure and where.
 *
 * <p>Why: for such a value the walk's own machinery (its thread's walk, its path, its sink's stacks and their reset)
 * is most of the copy's time. A Java caller's call on a lane copies twice, its arguments ({@code [7, "frame"]}) and
 * its result ({@code 7}): 187–189 ns a call with this, 216–221 ns with the walk for both (JMH
 * {@code CallGateBenchmark.callOnLane}, three interleaved rounds).
 */
final class FlatCopy {
    private static final Class<?> LIST_OF_ONE_OR_TWO = List.of(1).getClass();
    private static final Class<?> LIST_OF_OTHER_SIZES = List.of().getClass();
    private static final Class<?> ARRAYS_AS_LIST = Arrays.asList().getClass();
    /** A leaf that {@link #leafLength} does not take. */
    private static final long NOT_FLAT = -1;

    private FlatCopy() {
    }

    /** The copy of {@code value} and its length, or null: not flat, the walk copies it. */
    static PlainCodec.Copy of(Object value) {
        if (value instanceof List<?> list) {
            return ofList(list);
        }
        long length = leafLength(value);
        return length == NOT_FLAT ? null : new PlainCodec.Copy(leaf(value), length);
    }

    private static PlainCodec.Copy ofList(List<?> list) {
        Class<?> type = list.getClass();
        if (type != ArrayList.class && type != LIST_OF_ONE_OR_TWO && type != LIST_OF_OTHER_SIZES && type != ARRAYS_AS_LIST) {
            return null;
        }
        try {
            int size = list.size();
            long length = CopySink.head(size);
            ArrayList<Object> copy = new ArrayList<>(size);
            for (int i = 0; i < size; i++) { // one pass: each element read once, as the walk reads it
                Object element = list.get(i);
                long leaf = leafLength(element);
                if (leaf == NOT_FLAT) {
                    return null;
                }
                length += leaf;
                copy.add(leaf(element));
            }
            return new PlainCodec.Copy(copy, length);
        } catch (RuntimeException e) { // an ArrayList another thread changes meanwhile: the walk reports what it meets
            return null;
        }
    }

    /** The CBOR length of a leaf this class copies, or {@link #NOT_FLAT}. */
    private static long leafLength(Object value) {
        if (value == null || value instanceof Boolean) {
            return 1;
        }
        if (value instanceof Long || value instanceof Integer) {
            long number = ((Number) value).longValue();
            return CopySink.head(number < 0 ? -1 - number : number);
        }
        if (value instanceof Double) {
            return 9;
        }
        if (value instanceof String text && PlainValueWriter.unpairedSurrogate(text) < 0) {
            return CopySink.utf8Item(text);
        }
        return NOT_FLAT;
    }

    /** A leaf in decoding's normal form: an {@code Integer} as a {@code Long}; the rest are immutable and kept. */
    private static Object leaf(Object value) {
        return value instanceof Integer number ? (Object) number.longValue() : value;
    }
}
