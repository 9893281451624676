package dev.lanehost.nativeabi.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * Opaque 64-bit handles for objects a host refers to, looked up without locks or allocation.
 *
 * <pre>
 *  63      56 55          40 39             20 19             0
 * +----------+--------------+-----------------+----------------+
 * |   kind   |   instance   |   generation    |   slot index   |
 * +----------+--------------+-----------------+----------------+
 *    8 bits      16 bits         20 bits           20 bits
 * </pre>
 *
 * <ul>
 *   <li><b>Kind</b> (1..127) makes a handle of another kind of table unknown here and keeps every handle non-zero
 *       and positive.</li>
 *   <li><b>Instance</b> names the table's owner: each {@link #newInstance()} (one per host ABI, so its lane, gate,
 *       signal and ring-reference tables share it) takes the next number of a process-wide counter. Two runtimes in
 *       one process therefore issue different handles for their first gate, and a handle passed to the other
 *       runtime's table is recognised as foreign ({@link Standing#OTHER_TABLE}) rather than reaching the object in
 *       the same slot there. The counter wraps after 2^16 instances: only then can two live tables share an
 *       instance number, and a foreign handle match by accident (it must also match a live kind, generation and
 *       slot).</li>
 *   <li><b>Generation</b> counts the releases of its slot: a handle whose object was released never reaches the
 *       slot's next object, and is told apart from one never issued ({@link Standing#RELEASED} and
 *       {@link Standing#NEVER_ISSUED}). It is 20 bits: after 2^20 (1,048,576) reuses of one slot the generations
 *       repeat, and a handle released that long ago could match the slot's object again. That is the price of a
 *       64-bit handle; no slot is reused that often by any host we know (a host that looks up and releases a ring
 *       reference every 60 Hz frame takes about five hours). The field holds the generation plus a scramble of the
 *       slot index ({@link #offset}, a bijection of 20 bits), so handles of different slots differ there too: a
 *       handle whose slot index was corrupted (a flipped bit, an off-by-one) names a slot whose live handle carries
 *       another field, and misses. That is certain between slots released equally often (every slot of a host that
 *       exports and never releases); between others it fails only if their release counts differ by exactly the
 *       difference of their offsets, about 1 in 2^20.</li>
 *   <li><b>Slot</b> index: at most 2^20 (1,048,576) objects live at once per table; registering more throws
 *       {@link IllegalStateException}.</li>
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
    public static final int SLOT_BITS = 20;
    public static final int GENERATION_BITS = 20;
    public static final int INSTANCE_BITS = 16;
    private static final int GENERATION_SHIFT = SLOT_BITS;
    private static final int INSTANCE_SHIFT = SLOT_BITS + GENERATION_BITS;
    private static final int KIND_SHIFT = INSTANCE_SHIFT + INSTANCE_BITS;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final long GENERATION_MASK = (1L << GENERATION_BITS) - 1;
    private static final long INSTANCE_MASK = (1L << INSTANCE_BITS) - 1;
    /** The most objects a table holds at once. */
    public static final int MAX_LIVE = 1 << SLOT_BITS;
    /** After this many releases of a slot every generation has been issued (the count then stays at or past it). */
    private static final int ALL_GENERATIONS = 1 << GENERATION_BITS;
    private static final int INITIAL_SLOTS = 16;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

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
    private final long instanceBits;
    private final String kindName;
    private volatile Entry<T>[] slots;
    /**
     * Guarded by this: each slot's releases so far (its next generation is this mod 2^20; once past 2^20 the count
     * stays in 2^20..2^21 so it never overflows), and the free slots as a stack.
     */
    private int[] releases;
    private int[] free;
    private int freeCount;
    private int used;
    private int live;

    /** A table with an instance number of its own. */
    public HandleTable(int kind, String kindName) {
        this(kind, kindName, newInstance());
    }

    /** A table whose handles carry {@code instance} (from {@link #newInstance()}; tables of one owner share it). */
    @SuppressWarnings("unchecked")
    public HandleTable(int kind, String kindName, int instance) {
        if (kind < 1 || kind > 0x7F) {
            throw new IllegalArgumentException("kind must be in 1..127, got " + kind);
        }
        if (instance < 0 || instance > INSTANCE_MASK) {
            throw new IllegalArgumentException("instance must be in 0.." + INSTANCE_MASK + ", got " + instance);
        }
        this.kindBits = (long) kind << KIND_SHIFT;
        this.instanceBits = (long) instance << INSTANCE_SHIFT;
        this.kindName = kindName;
        this.slots = new Entry[INITIAL_SLOTS];
        this.releases = new int[INITIAL_SLOTS];
        this.free = new int[INITIAL_SLOTS];
    }

    /** The next instance number of the process-wide counter (wrapping after 2^16). */
    public static int newInstance() {
        return (int) (INSTANCES.getAndIncrement() & INSTANCE_MASK);
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
            if (used == MAX_LIVE) {
                throw new IllegalStateException("the " + kindName + " table holds " + MAX_LIVE
                        + " live handles, its limit: release some first");
            }
            if (used == slots.length) {
                grow();
            }
            index = used++;
        }
        long handle = kindBits | instanceBits | (((releases[index] + offset(index)) & GENERATION_MASK) << GENERATION_SHIFT) | index;
        Entry<T> entry = entryFor.apply(handle);
        if (entry == null || entry.handle != handle) {
            free[freeCount++] = index; // nothing was published: the slot goes back as it was
            throw new IllegalArgumentException("an entry must carry the handle it is registered under");
        }
        SLOT.setRelease(slots, index, entry);
        live++;
        return handle;
    }

    /** The object, or null if the handle is not live here ({@link #standing} says why). Lock-free, allocation-free. */
    public T lookup(long handle) {
        Entry<T> entry = lookupEntry(handle);
        return entry == null ? null : entry.value;
    }

    /** The entry, or null if the handle is not live here ({@link #standing} says why). Lock-free, allocation-free. */
    @SuppressWarnings("unchecked")
    public Entry<T> lookupEntry(long handle) {
        long index = handle & SLOT_MASK;
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
        int index = (int) (handle & SLOT_MASK);
        SLOT.setRelease(slots, index, null);
        int next = releases[index] + 1;
        releases[index] = next < 2 * ALL_GENERATIONS ? next : next - ALL_GENERATIONS; // stays past the wrap, no overflow
        free[freeCount++] = index;
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
        if ((handle & (INSTANCE_MASK << INSTANCE_SHIFT)) != instanceBits) {
            return Standing.OTHER_TABLE;
        }
        if (lookupEntry(handle) != null) {
            return Standing.LIVE;
        }
        int index = (int) (handle & SLOT_MASK);
        if (index >= used) {
            return Standing.NEVER_ISSUED;
        }
        // The slot has issued generations 0 .. releases (mod 2^20) and released all but the last: a handle that is
        // not the live one was released if its generation is one of the released ones.
        long generation = ((handle >>> GENERATION_SHIFT) - offset(index)) & GENERATION_MASK;
        return releases[index] >= ALL_GENERATIONS || generation < releases[index] ? Standing.RELEASED : Standing.NEVER_ISSUED;
    }

    /**
     * What slot {@code index} adds to its generation field: a bijection of 20 bits (odd multiplications and
     * xor-shifts), so no two slots add the same, and neighbouring slots add far-apart values. Slot 0 adds 0.
     */
    static long offset(int index) {
        long x = index & SLOT_MASK;
        x = (x * 0xB5AD5L) & GENERATION_MASK;
        x ^= x >>> 11;
        x = (x * 0x6A5E3L) & GENERATION_MASK;
        x ^= x >>> 10;
        return x;
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
        releases = Arrays.copyOf(releases, length);
        free = Arrays.copyOf(free, length);
    }
}
