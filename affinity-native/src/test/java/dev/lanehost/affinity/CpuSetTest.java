package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuSetTest {

    @Test
    void kernelListSyntaxRoundTrips() {
        CpuSet set = CpuSet.parse("0-3,8,10-11\n");
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, set.toArray());
        assertEquals("0-3,8,10-11", set.toString());
        assertEquals("0-1", CpuSet.of(0, 1).toString()); // as Cpus_allowed_list prints two CPUs
        assertEquals("", CpuSet.parse("").toString());
        assertEquals(CpuSet.empty(), CpuSet.parse("\n"));
    }

    @Test
    void placementRangeFormsFollowTheirBounds() {
        assertEquals(CpuSet.rangeClosed(4, 7), CpuSet.parse("4..8"));
        assertEquals(CpuSet.rangeClosed(4, 7), CpuSet.parse("4..=7"));
        assertEquals(CpuSet.rangeClosed(4, 7), CpuSet.parse("{4, 5, 6, 7}"));
        assertEquals(CpuSet.of(0, 1, 8, 9), CpuSet.parse("{0..2, 8-9}"));
        assertEquals(CpuSet.range(4, 8), CpuSet.parse(" 4 .. 8 "));
        assertEquals(CpuSet.empty(), CpuSet.parse("{}"));
        assertEquals("{0..=3, 8, 10..=11}", CpuSet.parse("0-3,8,10-11").toRangeString());
    }

    @Test
    void badTextIsRefusedWithPosition() {
        assertMessage("CPU set '1,,2' at position 2: expected a CPU number", "1,,2");
        assertMessage("range '4..4' is empty", "4..4");
        assertMessage("range '8-4' is empty", "8-4");
        assertMessage("expected ',' or '}'", "{1, 2");
        assertMessage("negative CPU numbers do not exist", "-1");
        assertMessage("too large", "99999999999");
        assertMessage("expected ','", "1 2");
    }

    @Test
    void setAlgebraAndWordsMatchBitSetOrder() {
        CpuSet a = CpuSet.parse("0-3");
        CpuSet b = CpuSet.parse("2-5");
        assertEquals(CpuSet.parse("0-5"), a.union(b));
        assertEquals(CpuSet.parse("2-3"), a.intersection(b));
        assertEquals(CpuSet.parse("0-1"), a.minus(b));
        assertTrue(a.union(b).containsAll(a));
        assertEquals(3, CpuSet.parse("1,3,5,7").get(1));
        assertArrayEquals(new long[] {1L, 1L << 1}, CpuSet.of(0, 65).toWords());
        assertEquals(CpuSet.of(0, 65), CpuSet.fromWords(new long[] {1L, 2L}));
        assertThrows(IllegalArgumentException.class, () -> CpuSet.of(-2));
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(4));
    }

    private static void assertMessage(String expected, String text) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(text));
        assertTrue(thrown.getMessage().contains(expected), thrown.getMessage());
    }
}
