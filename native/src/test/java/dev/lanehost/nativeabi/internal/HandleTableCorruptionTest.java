package dev.lanehost.nativeabi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A corrupted handle (bits flipped, an off-by-one) never reaches another live object of its table, and no handle
 * value is issued twice: a slot retires before its generation could wrap.
 */
class HandleTableCorruptionTest {
    private static final int LIVE = 300;
    private static final int INSTANCE = 5;

    @Test
    void noHandleWithUpToThreeBitsFlippedOrOneAddedOrTakenReachesAnyObject() {
        HandleTable<String> table = new HandleTable<>(2, "gate", INSTANCE);
        long[] handles = new long[LIVE];
        for (int i = 0; i < LIVE; i++) {
            handles[i] = table.register("object " + i); // every slot fresh: the exports of a host that never releases
        }
        assertNoCorruptionReachesAnObject(table, handles);
    }

    @Test
    void theSameOnceSlotsHaveBeenReleasedDifferentNumbersOfTimes() {
        HandleTable<String> table = new HandleTable<>(4, "ring reference", INSTANCE);
        long[] handles = new long[LIVE];
        for (int i = 0; i < LIVE; i++) {
            handles[i] = table.register("object " + i);
        }
        for (int round = 1; round <= 40; round++) { // slot i released i % 7 times, in an order that mixes the free stack
            for (int i = 0; i < LIVE; i++) {
                if (i % 7 >= round % 8 && round <= 7) {
                    String value = table.unregister(handles[i]);
                    handles[i] = table.register(value);
                }
            }
        }
        assertNoCorruptionReachesAnObject(table, handles);
    }

    /**
     * The check byte is a linear code: a value that differs from a handle by an error pattern is a handle only if the
     * pattern itself is a codeword. None of weight one, two or three is, so handles are at least four bits apart.
     */
    @Test
    void everyTwoHandlesDifferInAtLeastFourBits() {
        for (int a = 0; a < 64; a++) {
            assertNotCodeword(1L << a);
            for (int b = a + 1; b < 64; b++) {
                assertNotCodeword((1L << a) | (1L << b));
                for (int c = b + 1; c < 64; c++) {
                    assertNotCodeword((1L << a) | (1L << b) | (1L << c));
                }
            }
        }
    }

    @Test
    void aReleasedHandleReadsReleasedAndACorruptedOneNeverIssued() {
        HandleTable<String> table = new HandleTable<>(1, "lane", INSTANCE);
        long first = table.register("first");
        long second = table.register("second");
        assertSame("first", table.unregister(first));
        assertEquals(HandleTable.Standing.RELEASED, table.standing(first));
        long again = table.register("again");
        assertNotEquals(first, again, "the slot's next generation");
        assertEquals(HandleTable.Standing.NEVER_ISSUED, table.standing(again ^ (1L << 30)), "a generation bit flipped");
        assertEquals(HandleTable.Standing.NEVER_ISSUED, table.standing(second ^ (1L << 8)), "slot 1 read as slot 0");
        assertEquals(HandleTable.Standing.NEVER_ISSUED, table.standing(second + 1));
        assertEquals(HandleTable.Standing.OTHER_TABLE, table.standing(new HandleTable<>(1, "lane", INSTANCE + 1).register("x")));
        assertEquals(HandleTable.Standing.LIVE, table.standing(second));
    }

    /**
     * A host that looks up and releases in a loop reuses one slot: after all 2^24 of its generations the slot
     * retires and the next object takes a fresh slot. No value repeats, and the first stays released, never live.
     */
    @Test
    void aSlotRetiresAfterItsLastGenerationSoNoValueIsEverIssuedTwice() {
        HandleTable<String> table = new HandleTable<>(4, "ring reference", INSTANCE);
        long first = table.register("reference");
        long previous = first;
        long slotOfFirst = slotOf(first);
        long cycles = 0;
        long handle = first;
        while (slotOf(handle) == slotOfFirst) {
            assertSame("reference", table.unregister(handle));
            handle = table.register("reference");
            assertNotEquals(previous, handle);
            assertTrue(handle != first, "the first value came back after " + cycles + " cycles");
            previous = handle;
            cycles++;
        }
        assertTrue(cycles > (1L << 23) && cycles < (1L << HandleTable.GENERATION_BITS),
                "the slot issued its usable generations (those with a check byte other than 0x00 and 0xFF): " + cycles);
        assertNull(table.lookup(first));
        assertEquals(HandleTable.Standing.RELEASED, table.standing(first));
        assertEquals(1, table.size());
    }

    @Test
    void aFullTableRefusesWithASentence() {
        HandleTable<String> table = new HandleTable<>(3, "signal", INSTANCE);
        for (int i = 0; i < HandleTable.MAX_LIVE; i++) {
            table.register("signal");
        }
        HandleTable.Exhausted full = assertThrows(HandleTable.Exhausted.class, () -> table.register("one more"));
        assertTrue(full.getMessage().contains("release some first"), full.getMessage());
    }

    private static long slotOf(long handle) {
        return (handle >>> HandleTable.CHECK_BITS) & ((1L << HandleTable.SLOT_BITS) - 1);
    }

    private static void assertNotCodeword(long pattern) {
        long body = pattern & ~0xFFL;
        assertNotEquals(HandleTable.check(body), pattern & 0xFF, () -> "0x" + Long.toHexString(pattern) + " is a codeword");
    }

    private static void assertNoCorruptionReachesAnObject(HandleTable<String> table, long[] handles) {
        Set<Long> live = new HashSet<>();
        for (long handle : handles) {
            live.add(handle);
        }
        for (long handle : handles) {
            for (int a = 0; a < 64; a++) {
                assertCorruptionMisses(table, live, handle ^ (1L << a), handle, "bit " + a + " flipped");
                for (int b = a + 1; b < 64; b++) {
                    assertCorruptionMisses(table, live, handle ^ (1L << a) ^ (1L << b), handle, "bits " + a + ", " + b + " flipped");
                }
            }
            assertCorruptionMisses(table, live, handle + 1, handle, "+1");
            assertCorruptionMisses(table, live, handle - 1, handle, "-1");
        }
    }

    private static void assertCorruptionMisses(HandleTable<String> table, Set<Long> live, long corrupted, long from, String how) {
        if (table.lookup(corrupted) != null || live.contains(corrupted)) {
            throw new AssertionError("0x" + Long.toHexString(from) + " with " + how + " (0x" + Long.toHexString(corrupted)
                    + ") reached " + table.lookup(corrupted));
        }
        if (table.standing(corrupted) != HandleTable.Standing.NEVER_ISSUED && table.standing(corrupted) != HandleTable.Standing.OTHER_KIND) {
            throw new AssertionError("0x" + Long.toHexString(from) + " with " + how + " reads " + table.standing(corrupted));
        }
    }
}
