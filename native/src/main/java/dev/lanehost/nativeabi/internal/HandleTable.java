package dev.lanehost.nativeabi.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Opaque 64-bit handles for objects a host refers to, looked up without locks or allocation.
 *
 * <pre>
 *  63 62   60 59      50 49              26 25              8 7        0
 * +--+-------+----------+------------------+-----------------+----------+
 * | 0| kind  | instance |    generation    |   slot index    |  check   |
 * +--+-------+----------+------------------+-----------------+----------+
 *      3 bits  10 bits        24 bits           18 bits         8 bits
 * </pre>
 *
 * <ul>
 *   <li><b>Kind</b> (1..7) makes a handle of another kind of table unknown here and every handle non-zero and
 *       positive.</li>
 *   <li><b>Instance</b> names the table's owner, a host ABI: the number of its trampoline set, which the C library
 *       hands out once per process ({@code host_tables.h}). Two runtimes in one process therefore issue different
 *       handles, and a handle passed to the other runtime's table is recognised as foreign
 *       ({@link Standing#OTHER_TABLE}).</li>
 *   <li><b>Generation</b> counts the releases of its slot. A slot is retired, never to be used again, once it has
 *       issued all 2^24 generations, so no value is issued twice: a handle released long ago stays released. A
 *       table issues 2^18 x 2^24 = 2^42 handles in its life; after that it refuses new objects
 *       ({@link Exhausted}).</li>
 *   <li><b>Slot</b> index: at most 2^18 (262,144) objects live at once per table; registering more throws
 *       {@link Exhausted}.</li>
 *   <li><b>Check</b>: a CRC-8 (polynomial x^8 + x^2 + x + 1) of the other 56 bits, which makes every pair of
 *       handles differ in at least four bits, and never 0x00 or 0xFF (a generation whose check would be either is
 *       skipped), so adding or taking one changes the check byte alone. A handle changed in one, two or three bits,
 *       or off by one, is therefore never a handle any table issued, and never reaches another object.</li>
 * </ul>
 *
 * <p>Registration and removal take the table's lock (they are rare: exports, lookups by name); a lookup reads
 * the slot array and one entry with acquire semantics. An entry is the handle and its object; a caller on a hot
 * path may register an {@link Entry} subclass that carries what it needs beside the object, and reach it in
 * the same load ({@link #lookupEntry}). Only after a lookup has missed does a caller ask {@link #standing} why,
 * under the lock.
 */
public final class HandleTable<T> {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Entry[].class);
    public static final int CHECK_BITS = 8;
    public static final int SLOT_BITS = 18;
    public static final int GENERATION_BITS = 24;
    public static final int INSTANCE_BITS = 10;
    public static final int KIND_BITS = 3;
    private static final int SLOT_SHIFT = CHECK_BITS;
    private static final int GENERATION_SHIFT = SLOT_SHIFT + SLOT_BITS;
    private static final int INSTANCE_SHIFT = GENERATION_SHIFT + GENERATION_BITS;
    private static final int KIND_SHIFT = INSTANCE_SHIFT + INSTANCE_BITS;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final long GENERATION_MASK = (1L << GENERATION_BITS) - 1;
    private static final long INSTANCE_MASK = (1L << INSTANCE_BITS) - 1;
    private static final long CHECK_MASK = (1L << CHECK_BITS) - 1;
    /** The most objects a table holds at once. */
    public static final int MAX_LIVE = 1 << SLOT_BITS;
    /** The highest instance number a handle carries. */
    public static final int MAX_INSTANCE = (int) INSTANCE_MASK;
    private static final int GENERATIONS = 1 << GENERATION_BITS;
    private static final int INITIAL_SLOTS = 16;
    /** CRC-8 with polynomial 0x07, one entry per byte value. */
    private static final int[] CRC8 = crc8Table();

    /** Why a handle is not live in a table ({@link #standing}). */
    public enum Standing {
        /** It names a live object of this table (it became live after the lookup that missed). */
        LIVE,
        /** This table issued it and its object has since been released. */
        RELEASED,
        /** Its kind and instance are this table's, but this table never issued it: forged or corrupted. */
        NEVER_ISSUED,
        /** It is not a handle of this table's kind (0, a handle of another kind, or random bits). */
        OTHER_KIND,
        /** Its kind is this table's but it belongs to another table instance: another host ABI, another runtime. */
        OTHER_TABLE
    }

    /** A table that cannot take another object: 2^18 live at once, or every handle of its life issued. */
    public static final class Exhausted extends IllegalStateException {
        Exhausted(String message) {
            super(message);
        }
    }

    /** One live object and the full handle that names it (so a lookup checks every field at once). */
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
    private final long instanceBits;
    private final String kindName;
    private volatile Entry<T>[] slots;
    /** Guarded by this: each slot's next generation (GENERATIONS once retired), and the free slots as a stack. */
    private int[] generations;
    private int[] free;
    private int freeCount;
    private int used;
    private int live;

    /** A table whose handles carry {@code kind} and {@code instance} (the owner's trampoline set; tables of one owner share it). */
    @SuppressWarnings("unchecked")
    public HandleTable(int kind, String kindName, int instance) {
        if (kind < 1 || kind >= 1 << KIND_BITS) {
            throw new IllegalArgumentException("kind must be in 1.." + ((1 << KIND_BITS) - 1) + ", got " + kind);
        }
        if (instance < 0 || instance > INSTANCE_MASK) {
            throw new IllegalArgumentException("instance must be in 0.." + INSTANCE_MASK + ", got " + instance);
        }
        this.kindBits = (long) kind << KIND_SHIFT;
        this.instanceBits = (long) instance << INSTANCE_SHIFT;
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
     * @throws Exhausted if the table holds 2^18 objects, or has issued every handle of its life
     */
    public synchronized long registerEntry(LongFunction<? extends Entry<T>> entryFor) {
        int index = takeSlot();
        long handle = handleOf(index, generations[index]);
        Entry<T> entry = entryFor.apply(handle);
        if (entry == null || entry.handle != handle) {
            free[freeCount++] = index; // nothing was published: the slot goes back as it was
            throw new IllegalArgumentException("an entry must carry the handle it is registered under");
        }
        SLOT.setRelease(slots, index, entry);
        live++;
        return handle;
    }

    /** A free slot whose next generation has a usable check byte (skipping, and so retiring, as needed). */
    private int takeSlot() {
        while (true) {
            int index;
            if (freeCount > 0) {
                index = free[--freeCount];
            } else if (used < MAX_LIVE) {
                if (used == slots.length) {
                    grow();
                }
                index = used++;
            } else {
                throw new Exhausted("the " + kindName + " table holds " + live + " live handles and has retired the "
                        + (MAX_LIVE - live) + " other slots (each issues 2^" + GENERATION_BITS + " handles in its life): "
                        + (live == MAX_LIVE ? "release some first" : "it issues no more"));
            }
            while (generations[index] < GENERATIONS && unusableCheck(handleOf(index, generations[index]))) {
                generations[index]++;
            }
            if (generations[index] < GENERATIONS) {
                return index;
            } // retired: its last generations were unusable; it never goes back on the free stack
        }
    }

    private long handleOf(int index, int generation) {
        long body = kindBits | instanceBits | ((long) generation << GENERATION_SHIFT) | ((long) index << SLOT_SHIFT);
        return body | check(body);
    }

    private static boolean unusableCheck(long handle) {
        long check = handle & CHECK_MASK;
        return check == 0 || check == CHECK_MASK;
    }

    /** The object, or null if the handle is not live here ({@link #standing} says why). Lock-free, allocation-free. */
    public T lookup(long handle) {
        Entry<T> entry = lookupEntry(handle);
        return entry == null ? null : entry.value;
    }

    /** The entry, or null if the handle is not live here ({@link #standing} says why). Lock-free, allocation-free. */
    @SuppressWarnings("unchecked")
    public Entry<T> lookupEntry(long handle) {
        long index = (handle >>> SLOT_SHIFT) & SLOT_MASK;
        Entry<T>[] current = slots;
        if (index >= current.length) {
            return null;
        }
        Entry<T> entry = (Entry<T>) SLOT.getAcquire(current, (int) index);
        return entry != null && entry.handle == handle ? entry : null;
    }

    /**
     * Frees the handle's slot for a later object under its next generation, or retires the slot if it has issued
     * its last. @return the object, or null if the handle was not live
     */
    public synchronized T unregister(long handle) {
        T value = lookup(handle);
        if (value == null) {
            return null;
        }
        int index = (int) ((handle >>> SLOT_SHIFT) & SLOT_MASK);
        SLOT.setRelease(slots, index, null);
        if (++generations[index] < GENERATIONS) {
            free[freeCount++] = index;
        }
        live--;
        return value;
    }

    /**
     * Why {@code handle} is not live here, for the answer to a lookup that missed: whether this table issued it and
     * has since released its object, never issued it, or it belongs to another kind or another table instance.
     */
    public synchronized Standing standing(long handle) {
        if ((handle >>> KIND_SHIFT) != (kindBits >>> KIND_SHIFT)) {
            return Standing.OTHER_KIND;
        }
        if (check(handle & ~CHECK_MASK) != (handle & CHECK_MASK) || unusableCheck(handle)) {
            return Standing.NEVER_ISSUED; // no table issues it: corrupted or forged, whatever its instance says
        }
        if ((handle & (INSTANCE_MASK << INSTANCE_SHIFT)) != instanceBits) {
            return Standing.OTHER_TABLE;
        }
        if (lookupEntry(handle) != null) {
            return Standing.LIVE;
        }
        int index = (int) ((handle >>> SLOT_SHIFT) & SLOT_MASK);
        long generation = (handle >>> GENERATION_SHIFT) & GENERATION_MASK;
        return index < used && generation < generations[index] ? Standing.RELEASED : Standing.NEVER_ISSUED;
    }

    /** The check byte of the 56 bits above it: CRC-8, polynomial 0x07, no initial value or final xor. */
    static long check(long body) {
        int crc = 0;
        for (int shift = 56; shift >= CHECK_BITS; shift -= 8) {
            crc = CRC8[crc ^ (int) ((body >>> shift) & 0xFF)];
        }
        return crc;
    }

    private static int[] crc8Table() {
        int[] table = new int[256];
        for (int value = 0; value < 256; value++) {
            int crc = value;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x80) != 0 ? ((crc << 1) ^ 0x07) & 0xFF : (crc << 1) & 0xFF;
            }
            table[value] = crc;
        }
        return table;
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
