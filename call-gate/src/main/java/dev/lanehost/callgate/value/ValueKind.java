package dev.lanehost.callgate.value;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;

/**
 * What the encoder does with an object of a given class, decided once per class from the class alone, so
 * classifying a value never runs any of its code.
 *
 * <p>The order of the tests in {@link #classify} is the rule: value kinds first, so a record or enum that
 * also implements a functional interface is still a value; then functions; anything else is unsupported.
 */
enum ValueKind {
    STRING,
    /** {@code Character}, {@code StringBuilder}, {@code StringBuffer}: final JDK classes whose text is read as a string. */
    TEXT,
    BOOLEAN,
    /** {@code Byte}, {@code Short}, {@code Integer}, {@code Long}. */
    INTEGER,
    BIG_INTEGER,
    FLOAT,
    DOUBLE,
    BYTES,
    /** The remaining bytes of a {@code ByteBuffer} (a JDK class nobody else can subclass). */
    BYTE_BUFFER,
    /** Encoded as its {@code name()}, which is final in {@code Enum}. */
    ENUM,
    RECORD,
    MAP,
    COLLECTION,
    OBJECT_ARRAY,
    /** Arrays of {@code boolean}, {@code short}, {@code int}, {@code long}, {@code float}, {@code double}. */
    PRIMITIVE_ARRAY,
    /** A lambda, method reference or functional-interface instance: omitted from maps and records, null elsewhere. */
    FUNCTION,
    UNSUPPORTED;

    private static final ClassValue<ValueKind> KINDS = new ClassValue<>() {
        @Override
        protected ValueKind computeValue(Class<?> type) {
            return classify(type);
        }
    };

    private static final ClassValue<Boolean> FUNCTIONAL = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return implementsFunctionalInterface(type);
        }
    };

    static ValueKind of(Class<?> type) {
        // The commonest leaves first, by identity: a class-value lookup costs more than the rest of their walk.
        if (type == String.class) {
            return STRING;
        }
        if (type == Integer.class || type == Long.class) {
            return INTEGER;
        }
        return KINDS.get(type);
    }

    /** Whether this object is function-valued; {@code null} is a value. */
    static boolean isFunction(Object value) {
        return value != null && KINDS.get(value.getClass()) == FUNCTION;
    }

    private static ValueKind classify(Class<?> type) {
        // Exact classes where a subclass could run its own code when read (BigInteger is not final).
        if (type == String.class) {
            return STRING;
        }
        if (type == Boolean.class) {
            return BOOLEAN;
        }
        if (type == Integer.class || type == Long.class || type == Short.class || type == Byte.class) {
            return INTEGER;
        }
        if (type == Double.class) {
            return DOUBLE;
        }
        if (type == Float.class) {
            return FLOAT;
        }
        if (type == BigInteger.class) {
            return BIG_INTEGER;
        }
        if (type == Character.class || type == StringBuilder.class || type == StringBuffer.class) {
            return TEXT;
        }
        if (type == byte[].class) {
            return BYTES;
        }
        if (ByteBuffer.class.isAssignableFrom(type)) {
            return BYTE_BUFFER;
        }
        if (Enum.class.isAssignableFrom(type)) {
            return ENUM;
        }
        if (type.isRecord()) {
            return RECORD;
        }
        if (Map.class.isAssignableFrom(type)) {
            return MAP;
        }
        if (Collection.class.isAssignableFrom(type)) {
            return COLLECTION;
        }
        if (type.isArray()) {
            Class<?> component = type.getComponentType();
            if (!component.isPrimitive()) {
                return OBJECT_ARRAY;
            }
            // char[] is refused rather than guessed: text, or a list of UTF-16 code units?
            return component == char.class ? UNSUPPORTED : PRIMITIVE_ARRAY;
        }
        // Lambdas and method references are hidden classes (JDK 15+); older compilers' synthetic classes too.
        if (type.isHidden() || type.isSynthetic() || FUNCTIONAL.get(type)) {
            return FUNCTION;
        }
        return UNSUPPORTED;
    }

    private static boolean implementsFunctionalInterface(Class<?> type) {
        if (type.isInterface() && type.isAnnotationPresent(FunctionalInterface.class)) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (FUNCTIONAL.get(implemented)) {
                return true;
            }
        }
        Class<?> superclass = type.getSuperclass();
        return superclass != null && FUNCTIONAL.get(superclass);
    }
}
