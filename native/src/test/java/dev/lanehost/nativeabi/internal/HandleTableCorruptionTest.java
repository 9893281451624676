package dev.lanehost.nativeabi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A corrupted handle (a flipped bit, an off-by-one) never reaches another live object of its table. */
class HandleTableCorruptionTest {
    private static final int LIVE = 300;

    @Test
    void noHandleWithOneBitFlippedOrOneAddedOrTakenReachesAnyObject() {
        HandleTable<String> table = new HandleTable<>(0x47, "gate");
        long[] handles = new long[LIVE];
        for (int i = 0; i < LIVE; i++) {
            handles[i] = table.register("object " + i); // every slot fresh: the exports of a host that never releases
        }
        assertNoCorruptionReachesAnObject(table, handles);
    }

    @Test
    void theSameOnceSlotsHaveBeenReleasedDifferentNumbersOfTimes() {
        HandleTable<String> table = new HandleTable<>(0x52, "ring reference");
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

    @Test
    void aReleasedHandleReadsReleasedAndANeighboursSlotNeverIssued() {
        HandleTable<String> table = new HandleTable<>(0x4C, "lane");
        long first = table.register("first");
        long second = table.register("second");
        assertSame("first", table.unregister(first));
        assertEquals(HandleTable.Standing.RELEASED, table.standing(first));
        long again = table.register("again");
        assertNotEquals(first, again, "the slot's next generation");
        assertEquals(HandleTable.Standing.NEVER_ISSUED, table.standing(again + (1L << HandleTable.SLOT_BITS)));
        assertEquals(HandleTable.Standing.NEVER_ISSUED, table.standing(second ^ 1), "slot 0's index under slot 1's field");
        assertEquals(HandleTable.Standing.LIVE, table.standing(second));
    }

    @Test
    void theSlotOffsetIsABijectionOfTwentyBits() {
        Set<Long> seen = new HashSet<>();
        for (int index = 0; index < HandleTable.MAX_LIVE; index++) {
            long offset = HandleTable.offset(index);
            assertEquals(offset, offset & ((1L << HandleTable.GENERATION_BITS) - 1));
            if (!seen.add(offset)) {
                throw new AssertionError("slots share the offset " + offset + " (slot " + index + ")");
            }
        }
    }

    private static void assertNoCorruptionReachesAnObject(HandleTable<String> table, long[] handles) {
        Set<Long> live = new HashSet<>();
        for (long handle : handles) {
            live.add(handle);
        }
        for (long handle : handles) {
            for (int bit = 0; bit < 64; bit++) {
                assertCorruptionMisses(table, live, handle ^ (1L << bit), handle, "bit " + bit + " flipped");
            }
            assertCorruptionMisses(table, live, handle + 1, handle, "+1");
            assertCorruptionMisses(table, live, handle - 1, handle, "-1");
        }
    }

    private static void assertCorruptionMisses(HandleTable<String> table, Set<Long> live, long corrupted, long from, String how) {
        assertNull(table.lookup(corrupted), () -> "0x" + Long.toHexString(from) + " with " + how + " (0x"
                + Long.toHexString(corrupted) + ") reached " + table.lookup(corrupted));
        assertEquals(false, live.contains(corrupted));
    }
}
