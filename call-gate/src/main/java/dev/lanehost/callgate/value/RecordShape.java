package dev.lanehost.callgate.value;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * A record class as the encoder sees it: its component names (also pre-encoded as map keys) and accessors,
 * in declaration order. Computed once per record class.
 *
 * <p>Accessors are made accessible where the record's module allows it (always on the class path), so
 * private and nested records work; in a named module that does not open the package, calling one fails
 * and the encoder reports {@code NOT_SERIALIZABLE}.
 */
final class RecordShape {

    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return new RecordShape(type.getRecordComponents());
        }
    };

    private final String[] names;
    /** Each name as a CBOR text string item, head and UTF-8: written as a map key with one copy. */
    private final byte[][] encodedNames;
    private final Method[] accessors;

    private RecordShape(RecordComponent[] components) {
        names = new String[components.length];
        encodedNames = new byte[components.length][];
        accessors = new Method[components.length];
        for (int i = 0; i < components.length; i++) {
            names[i] = components[i].getName();
            encodedNames[i] = CborWriter.encodeKey(names[i]);
            accessors[i] = components[i].getAccessor();
            // A refusal here is not an error yet: a public record in an exported package needs no help.
            accessors[i].trySetAccessible();
        }
    }

    static RecordShape of(Class<?> recordClass) {
        return SHAPES.get(recordClass);
    }

    int size() {
        return names.length;
    }

    String name(int component) {
        return names[component];
    }

    byte[] encodedName(int component) {
        return encodedNames[component];
    }

    Method accessor(int component) {
        return accessors[component];
    }
}
