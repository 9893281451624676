package dev.lanehost.lanes.scheduler.hosted;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.cell.RunQueue;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A worker's and a run queue's fields, grouped by the thread that writes them, sit at least a pair of cache lines
 * apart (x86 prefetches lines in pairs): a sender reading what it needs for an offer, or whether the worker is
 * parked, never misses on a line the worker writes at every turn.
 */
class FieldLayoutTest {
    private static final long LINE_PAIR = 128;

    @Test
    void aRunQueuesTurnFieldsAreALinePairFromTheFieldsEverySenderReads() throws Exception {
        long[] consumer = offsets(RunQueue.class, "running", "turnsStarted", "turnEndClock", "consumerLock");
        long[] senders = offsets(RunQueue.class, "name", "bands", "work", "policy", "arrivals", "waker", "pools", "pooled", "consumer");
        assertApart("the end of the run queue's header", firstField(RunQueue.class), "its consumer's fields", min(consumer));
        assertApart("the consumer's fields", max(consumer), "the senders' fields", min(senders));
    }

    @Test
    void aWorkersRunFieldsWakeFieldsAndFixedFieldsAreEachALinePairApart() throws Exception {
        long thread = max(Arrays.stream(Thread.class.getDeclaredFields())
                .filter(field -> !Modifier.isStatic(field.getModifiers())).mapToLong(FieldLayoutTest::offset).toArray());
        long[] run = offsets(Worker.class, "next", "runs", "nextRuns", "pinnedFirst", "nextVictim", "turns", "stealAttempts",
                "steals", "handOffs");
        long[] wake = offsets(Worker.class, "parked", "spinning", "wokenAt", "wakeUps");
        long[] fixed = offsets(Worker.class, "index", "pool", "shared", "pinned", "handOff", "asThief", "kept");
        assertApart("Thread's fields", thread, "the worker's run fields", min(run));
        assertApart("the run fields", max(run), "the wake fields", min(wake));
        assertApart("the wake fields", max(wake), "the fixed fields", min(fixed));
    }

    /** Where the object's header ends: the offset of its first field, whichever class declares it. */
    private static long firstField(Class<?> leaf) {
        long first = Long.MAX_VALUE;
        for (Class<?> type = leaf; type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    first = Math.min(first, offset(field));
                }
            }
        }
        return first;
    }

    private static void assertApart(String before, long beforeEnd, String after, long afterStart) {
        assertTrue(afterStart - beforeEnd >= LINE_PAIR, after + " at " + afterStart + " are within " + LINE_PAIR
                + " bytes of " + before + " at " + beforeEnd);
    }

    /** Each named field's offset, found in {@code leaf} or the class it extends. */
    private static long[] offsets(Class<?> leaf, String... names) throws NoSuchFieldException {
        long[] offsets = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            offsets[i] = offset(declared(leaf, names[i]));
        }
        return offsets;
    }

    private static Field declared(Class<?> leaf, String name) throws NoSuchFieldException {
        for (Class<?> type = leaf; type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(name) && !Modifier.isStatic(field.getModifiers())) {
                    return field;
                }
            }
        }
        throw new NoSuchFieldException(name + " in " + leaf.getName() + " or its superclasses");
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static long offset(Field field) {
        try {
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return ((sun.misc.Unsafe) theUnsafe.get(null)).objectFieldOffset(field);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("sun.misc.Unsafe is needed to read field offsets", e);
        }
    }

    private static long min(long[] offsets) {
        return Arrays.stream(offsets).min().orElseThrow();
    }

    private static long max(long[] offsets) {
        return Arrays.stream(offsets).max().orElseThrow();
    }
}
