package dev.lanehost.callgate.value;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * Walks one value tree and writes it to a {@link PlainSink}: CBOR, or a plain copy. One writer per walk.
 *
 * <p>The walk is recursive and bounded: it enters at most {@link PlainCodec#MAX_DEPTH} containers, and
 * before entering one it compares it by identity ({@code ==}, never {@code equals}/{@code hashCode}) with
 * the containers already open on the path from the top, which is how a cycle is found.
 *
 * <p>The only code of the value that runs: record accessors, and {@code size()}, {@code iterator()} and
 * {@code entrySet()} of its collections and maps (and what those call). Never {@code toString},
 * {@code hashCode}, {@code equals} or a serialization hook.
 */
final class PlainValueWriter {

    private final PlainSink out;
    /** The containers entered and not yet left, top first: {@code open[i]} was reached in {@code i} steps. */
    private Object[] open = new Object[PlainCodec.INITIAL_DEPTH];
    private int depth;
    private final ValuePath path = new ValuePath();

    PlainValueWriter(PlainSink out) {
        this.out = out;
    }

    /** Ready for another walk, after one that ended or failed anywhere. A whole walk leaves nothing to clear. */
    void reset() {
        if (depth != 0) {
            Arrays.fill(open, null);
            depth = 0;
        }
        path.reset();
    }

    /** Where the walk is (or stopped, after a failure). */
    String path() {
        return path.render();
    }

    void write(Object value) throws IOException, PlainValueException {
        if (value == null) {
            out.writeNull();
            return;
        }
        switch (ValueKind.of(value.getClass())) {
            case STRING -> writeText((String) value);
            case TEXT -> writeText(value.toString()); // Character, StringBuilder, StringBuffer: JDK code only
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case INTEGER -> out.writeInteger(((Number) value).longValue());
            case BIG_INTEGER -> writeBigInteger((BigInteger) value);
            case FLOAT -> out.writeFloat((Float) value);
            case DOUBLE -> out.writeDouble((Double) value);
            case BYTES -> {
                byte[] bytes = (byte[]) value;
                out.writeBytes(bytes, 0, bytes.length);
            }
            case BYTE_BUFFER -> writeByteBuffer((ByteBuffer) value);
            case ENUM -> writeText(((Enum<?>) value).name());
            case RECORD -> writeRecord((Record) value);
            case MAP -> writeMap((Map<?, ?>) value);
            case COLLECTION -> writeCollection((Collection<?>) value);
            case OBJECT_ARRAY -> writeObjectArray((Object[]) value);
            case PRIMITIVE_ARRAY -> writePrimitiveArray(value);
            // A list element or the top value must be something; an absent function reads as null there.
            case FUNCTION -> out.writeNull();
            case UNSUPPORTED -> throw notSerializable("unsupported type " + value.getClass().getName() + " at " + path()
                    + " (plain values are null, booleans, integers, floats, strings, byte strings, lists, maps with"
                    + " string keys, records and enums)");
        }
    }

    private void writeText(String text) throws IOException, PlainValueException {
        checkUnicode(text, "string");
        out.writeText(text);
    }

    private void writeKey(String key) throws IOException, PlainValueException {
        checkUnicode(key, "map key");
        out.writeKey(key, null);
    }

    /** Java strings may hold lone surrogates, which UTF-8 cannot carry ({@code getBytes} would write '?'). */
    private void checkUnicode(String text, String what) throws PlainValueException {
        int at = unpairedSurrogate(text);
        if (at >= 0) {
            throw notSerializable(what + " at " + path() + " has an unpaired surrogate at index " + at
                    + " and cannot be written as UTF-8");
        }
    }

    /** The index of the first surrogate in {@code text} that is not half of a pair, or -1. */
    static int unpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
    }

    private void writeBigInteger(BigInteger value) throws IOException, PlainValueException {
        int bits = value.bitLength();
        if (bits < Long.SIZE) {
            out.writeInteger(value.longValue());
        } else if (bits <= PlainCodec.MAX_BIG_INTEGER_BITS) {
            out.writeBigInteger(value); // 64 bits plus sign as major type 0 or 1, a bignum beyond
        } else {
            throw notSerializable("integer at " + path() + " has " + bits + " bits; plain integers have at most "
                    + PlainCodec.MAX_BIG_INTEGER_BITS + " bits plus sign");
        }
    }

    private void writeByteBuffer(ByteBuffer buffer) throws IOException {
        int length = buffer.remaining();
        if (buffer.hasArray()) {
            out.writeBytes(buffer.array(), buffer.arrayOffset() + buffer.position(), length);
        } else {
            byte[] copy = new byte[length];
            buffer.get(buffer.position(), copy); // absolute: the caller's buffer position does not move
            out.writeBytes(copy, 0, length);
        }
    }

    private void writeRecord(Record record) throws IOException, PlainValueException {
        enter(record);
        RecordShape shape = RecordShape.of(record.getClass());
        // Each accessor runs once: the values are read first, then counted, then written.
        Object[] values = new Object[shape.size()];
        int count = 0;
        for (int i = 0; i < values.length; i++) {
            path.pushKey(shape.name(i));
            values[i] = readComponent(record, shape, i);
            path.pop();
            if (!ValueKind.isFunction(values[i])) {
                count++;
            }
        }
        out.startMap(record, count);
        for (int i = 0; i < values.length; i++) {
            if (ValueKind.isFunction(values[i])) {
                continue;
            }
            path.pushKey(shape.name(i));
            out.writeKey(shape.name(i), shape.encodedName(i));
            write(values[i]);
            path.pop();
        }
        out.endMap();
        leave();
    }

    private Object readComponent(Record record, RecordShape shape, int component) throws PlainValueException {
        try {
            return shape.accessor(component).invoke(record);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof OutOfMemoryError) {
                throw new PlainValueException(PlainValueFailure.OUT_OF_MEMORY, "ran out of memory reading " + path(), cause);
            }
            throw new PlainValueException(PlainValueFailure.NOT_SERIALIZABLE, "the accessor of " + path() + " ("
                    + record.getClass().getName() + "." + shape.name(component) + "()) threw " + cause, cause);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new PlainValueException(PlainValueFailure.NOT_SERIALIZABLE, "cannot call the accessor of " + path() + " ("
                    + record.getClass().getName() + "." + shape.name(component) + "()): " + e.getMessage()
                    + " (a record in a named module must open its package)", e);
        }
    }

    private void writeMap(Map<?, ?> map) throws IOException, PlainValueException {
        enter(map);
        // CBOR maps here are definite-length, so the entries that will be written are counted first.
        int count = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            checkKey(entry.getKey());
            if (!ValueKind.isFunction(entry.getValue())) {
                count++;
            }
        }
        out.startMap(map, count);
        int written = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = checkKey(entry.getKey());
            Object value = entry.getValue();
            if (ValueKind.isFunction(value)) {
                continue;
            }
            if (written == count) {
                throw changedWhileEncoding("map", count);
            }
            path.pushKey(key);
            writeKey(key);
            write(value);
            path.pop();
            written++;
        }
        if (written != count) {
            throw changedWhileEncoding("map", count);
        }
        out.endMap();
        leave();
    }

    private String checkKey(Object key) throws PlainValueException {
        if (key instanceof String text) {
            return text;
        }
        // Name the key's class, not the key: its toString is the value's own code.
        String what = key == null ? "a null key" : "a key of type " + key.getClass().getName();
        throw notSerializable("the map at " + path() + " has " + what + "; plain map keys are strings");
    }

    private void writeCollection(Collection<?> collection) throws IOException, PlainValueException {
        enter(collection);
        int size = collection.size();
        out.startList(collection, size);
        Iterator<?> elements = collection.iterator();
        int index = 0;
        while (elements.hasNext()) {
            if (index == size) {
                throw changedWhileEncoding("collection", size);
            }
            path.pushIndex(index);
            Object element = elements.next();
            write(element);
            path.pop();
            index++;
        }
        if (index != size) {
            throw changedWhileEncoding("collection", size);
        }
        out.endList();
        leave();
    }

    private void writeObjectArray(Object[] array) throws IOException, PlainValueException {
        enter(array);
        out.startList(array, array.length);
        for (int i = 0; i < array.length; i++) {
            path.pushIndex(i);
            write(array[i]);
            path.pop();
        }
        out.endList();
        leave();
    }

    private void writePrimitiveArray(Object array) throws IOException, PlainValueException {
        enter(array); // holds no references, so it cannot close a cycle; it still counts as a level
        switch (array) {
            case int[] values -> {
                out.startList(values, values.length);
                for (int value : values) {
                    out.writeInteger(value);
                }
            }
            case long[] values -> {
                out.startList(values, values.length);
                for (long value : values) {
                    out.writeInteger(value);
                }
            }
            case short[] values -> {
                out.startList(values, values.length);
                for (short value : values) {
                    out.writeInteger(value);
                }
            }
            case double[] values -> {
                out.startList(values, values.length);
                for (double value : values) {
                    out.writeDouble(value);
                }
            }
            case float[] values -> {
                out.startList(values, values.length);
                for (float value : values) {
                    out.writeFloat(value);
                }
            }
            case boolean[] values -> {
                out.startList(values, values.length);
                for (boolean value : values) {
                    out.writeBoolean(value);
                }
            }
            default -> throw notSerializable("unsupported type " + array.getClass().getName() + " at " + path());
        }
        out.endList();
        leave();
    }

    private void enter(Object container) throws PlainValueException {
        for (int i = 0; i < depth; i++) {
            if (open[i] == container) {
                throw notSerializable("cycle: the value at " + path() + " is the same object as its ancestor at "
                        + path.render(i));
            }
        }
        if (depth == PlainCodec.MAX_DEPTH) {
            throw notSerializable("the value at " + path() + " nests deeper than " + PlainCodec.MAX_DEPTH
                    + " lists, maps and records");
        }
        if (depth == open.length) {
            open = Arrays.copyOf(open, Math.min(PlainCodec.MAX_DEPTH, 2 * depth));
        }
        open[depth++] = container;
    }

    private void leave() {
        open[--depth] = null;
    }

    private PlainValueException changedWhileEncoding(String what, int expected) {
        return notSerializable("the " + what + " at " + path() + " changed while it was being encoded (it had "
                + expected + " entries)");
    }

    private static PlainValueException notSerializable(String message) {
        return new PlainValueException(PlainValueFailure.NOT_SERIALIZABLE, message);
    }
}
