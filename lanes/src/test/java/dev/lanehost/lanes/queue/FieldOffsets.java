package dev.lanehost.lanes.queue;

import java.lang.reflect.Field;

/** Where the JVM put a field in its object, for the queues' layout tests. */
final class FieldOffsets {
    /** What the padding is for: two 64-byte lines, as x86 prefetches lines in adjacent pairs. */
    static final long LINE_PAIR = 128;

    private FieldOffsets() {
    }

    @SuppressWarnings({"deprecation", "removal"})
    static long of(Class<?> owner, String name) throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        return unsafe.objectFieldOffset(owner.getDeclaredField(name));
    }
}
