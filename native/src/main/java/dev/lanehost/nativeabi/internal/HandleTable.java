package dev.lanehost.nativeabi.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Opaque 64-bit handles for objects a host refers to, looked up without locks or allocation.
 *
 * <pre>
 *  63      56 55                  32 31                     0
 * +----------+----------------------+------------------------+
 * |   kind   |      generation      |       slot index       |
 * +----------+----------------------+------------------------+
 * </pre>
 *
 * The kind (1..127) makes a handle of another table unknown here and keeps every handle non-zero. A slot's
 * generation grows each time the slot is freed, so a stale handle (its object unexported) never reaches the
 * slot's next object; a made-up number almost never matches a live (kind, generation, index). After 2^24
 * reuses of one slot a generation repeats: a handle stale for that long could match again, which is the
 * price of a 64-bit handle.
 *
 * <p>Registration and removal take the table's lock (they are rare: exports, lookups by name); a lookup reads
 * the slot array and one entry with acquire semantics. An entry is the handle and its object; a caller on a hot
 * path may register an {@link Entry} subclass that carries what it needs beside the object, and reach it in
 * the same load ({@link #lookupEntry}).
 */
public final class HandleTable<T> {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Entry[].class);
    private static final int GENERATION_BITS = 24;
    private static final int INITIAL_SLOTS = 16;

    /** One live object and the full handle that names it (so a lookup checks kind, generation and index at once). */
    public static class Entry<T> {
        private final long handle;
        private final T value;

        public Entry(long handle, T value) {
            this.handle = handle;
            this.value = value;
        }

        public final long handle() {
            return handle;
        }

        public final T value() {
            return value;
        }
    }

    private final long kindBits;
    private final String kindName;
    private volatile Entry<T>[] slots;
    /** Guarded by this: each slot's next generation, and the free slots as a stack. */
    private int[] generations;
    private int[] free;
    private int freeCount;
    private int used;
    private int live;

    @SuppressWarnings("unchecked")
    public HandleTable(int kind, String kindName) {
        if (kind < 1 || kind > 0x7F) {
            throw new IllegalArgumentException("kind must be in 1..127, got " + kind);
        }
        this.kindBits = (long) kind << 56;
        this.kindName = kindName;
        this.slots = new Entry[INITIAL_SLOTS];
        this.generations = new int[INITIAL_SLOTS];
        this.free = new int[INITIAL_SLOTS];
    }

    public long register(T value) {
        return registerEntry(handle -> new Entry<>(handle, value));
    }

    /**
     * Registers the entry {@code entryFor} makes for the new handle (it must carry that handle).
     *
     * @return the handle
     */
    public synchronized long registerEntry(LongFunction<? extends Entry<T>> entryFor) {
        int index;
        if (freeCount > 0) {
            index = free[--freeCount];
        } else {
            if (used == slots.length) {
                grow();
            }
            index = used++;
        }
        long handle = kindBits | ((long) generations[index] << 32) | (index & 0xFFFF_FFFFL);
        Entry<T> entry = entryFor.apply(handle);
        if (entry == null || entry.handle != handle) {
            free[freeCount++] = index; // nothing was published: the slot goes back as it was
            throw new IllegalArgumentException("an entry must carry the handle it is registered under");
        }
        SLOT.setRelease(slots, index, entry);
        live++;
        return handle;
    }

    /** The object, or null if the handle is unknown, stale, or of another kind. Lock-free, allocation-free. */
    public T lookup(long handle) {
        Entry<T> entry = lookupEntry(handle);
        return entry == null ? null : entry.value;
    }

    /** The entry, or null if the handle is unknown, stale, or of another kind. Lock-free, allocation-free. */
    @SuppressWarnings("unchecked")
    public Entry<T> lookupEntry(long handle) {
        long index = handle & 0xFFFF_FFFFL;
        Entry<T>[] current = slots;
        if (index >= current.length) {
            return null;
        }
        Entry<T> entry = (Entry<T>) SLOT.getAcquire(current, (int) index);
        return entry != null && entry.handle == handle ? entry : null;
    }

    /** Frees the handle's slot for a later object under the next generation. @return the object, or null if the handle was not live */
    public synchronized T unregister(long handle) {
        T value = lookup(handle);
        if (value == null) {
            return null;
        }
        int index = (int) (handle & 0xFFFF_FFFFL);
        SLOT.setRelease(slots, index, null);
        generations[index] = (generations[index] + 1) & ((1 << GENERATION_BITS) - 1);
        free[freeCount++] = index;
        live--;
        return value;
    }

    /** Handles live now. */
    public synchronized int size() {
        return live;
    }

    /** Unregisters every entry (the host ABI closed): every handle reads unknown afterwards. */
    @SuppressWarnings("unchecked")
    public synchronized void clear() {
        for (int index = 0; index < used; index++) {
            Entry<T> entry = (Entry<T>) SLOT.getAcquire(slots, index);
            if (entry != null) {
                unregister(entry.handle);
            }
        }
    }

    public String kindName() {
        return kindName;
    }

    private void grow() {
        int length = slots.length * 2;
        slots = Arrays.copyOf(slots, length); // entries written after this go to the new array only
        generations = Arrays.copyOf(generations, length);
        free = Arrays.copyOf(free, length);
    }
}
