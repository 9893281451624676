package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/** A gate's admission counts: the bound, and each counter on a pair of cache lines of its own. */
class GateCountsTest {
    /** Two 64-byte lines: x86 fetches lines in adjacent pairs. */
    private static final long LINE_PAIR = 128;

    @Test
    void admitsUpToTheBoundAndAgainOnceASlotIsReleased() {
        GateCounts counts = new GateCounts();
        assertTrue(counts.admit(2));
        assertTrue(counts.admit(2));
        assertFalse(counts.admit(2), "a third pending call past a bound of 2");
        assertEquals(2, counts.pending(), "the refused call counted itself out again");
        counts.released();
        assertTrue(counts.admit(2), "a slot released is a slot to admit");
        assertEquals(2, counts.pending());
    }

    /**
     * The callers' counter is written at every call, the released one by the actor's thread at every turn's end: each
     * is a pair of lines away from the other, from the object's start (what the allocator put before it, such as the
     * gate, which the actor's thread reads at every turn) and from its end.
     */
    @Test
    void eachCounterSitsOnACacheLinePairOfItsOwn() throws ReflectiveOperationException {
        long admitted = offset(GateCountsAdmitted.class, "admitted");
        long releasedSeen = offset(GateCountsAdmitted.class, "releasedSeen");
        long released = offset(GateCountsReleased.class, "released");
        long end = offset(GateCounts.class, "r127") + 1;
        long callersFirst = Math.min(admitted, releasedSeen);
        long callersLast = Math.max(admitted, releasedSeen);
        assertTrue(callersFirst >= LINE_PAIR, "the callers' fields start at " + callersFirst
                + ", within " + LINE_PAIR + " bytes of whatever lies before the object");
        assertTrue(released - callersLast >= LINE_PAIR, "the released count at " + released
                + " is within " + LINE_PAIR + " bytes of the callers' fields at " + callersLast);
        assertTrue(end - released >= LINE_PAIR, "the released count at " + released
                + " is within " + LINE_PAIR + " bytes of the object's end at " + end);
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static long offset(Class<?> owner, String name) throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        return ((sun.misc.Unsafe) theUnsafe.get(null)).objectFieldOffset(owner.getDeclaredField(name));
    }
}
