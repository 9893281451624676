package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The C header and the Java descriptor describe one layout: every constant, by name, on both sides. */
class RingLayoutAgreementTest {

    @Test
    void everyCEntryEqualsTheJavaConstantOfTheSameName() throws IllegalAccessException {
        Map<String, Long> c = LanehostLibrary.ringLayout();
        Map<String, Long> java = javaConstants();
        assertTrue(c.size() >= 20, "the C report has only " + c.size() + " entries: " + c);
        assertEquals(new TreeMap<>(java), new TreeMap<>(c), "C layout report vs SpscByteRingDescriptor constants");
    }

    @Test
    void alignmentAndLengthAreComparedWithTheCompilersAnswer() {
        // The C report gives _Alignof and sizeof of the header struct (and offsetof for every field), so
        // this compares the Java mirror with the struct itself, not with a macro that could drift with it.
        Map<String, Long> c = LanehostLibrary.ringLayout();
        assertEquals(128L, c.get("ALIGNMENT"), "_Alignof(lanehost_ring_header)");
        assertEquals((long) SpscByteRingDescriptor.ALIGNMENT, c.get("ALIGNMENT"));
        assertEquals((long) SpscByteRingDescriptor.HEADER_LENGTH, c.get("HEADER_LENGTH"), "sizeof(lanehost_ring_header)");
    }

    @Test
    void javaRefusesMisalignedMemoryInTheHeadersWords() {
        String text = LanehostLibrary.ringStatusText(SpscByteRingDescriptor.STATUS_MISALIGNED);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment halfAligned = arena.allocate(SpscByteRingDescriptor.memoryLength(64) + 128, 128)
                    .asSlice(SpscByteRingDescriptor.CACHE_LINE_LENGTH);
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> SpscByteRing.wrap(halfAligned));
            assertTrue(thrown.getMessage().contains(text.substring("ring memory ".length())),
                    () -> "Java says '" + thrown.getMessage() + "', C says '" + text + "'");
        }
    }

    @Test
    void statusTextsComeFromTheHeader() {
        assertEquals("ring memory is not 128-byte aligned", LanehostLibrary.ringStatusText(SpscByteRingDescriptor.STATUS_MISALIGNED));
        assertEquals("unknown lanehost ring status", LanehostLibrary.ringStatusText(77));
    }

    @Test
    void bothLanguagesRefuseACorruptRingAtWrapInTheSameWords() {
        String text = LanehostLibrary.ringStatusText(SpscByteRingDescriptor.STATUS_CORRUPT);
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            // The consumer ahead of the producer: no working ring has that.
            ring.memory().set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET, 10);
            ring.memory().set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET, 20);

            IllegalArgumentException java = assertThrows(IllegalArgumentException.class, () -> SpscByteRing.wrap(ring.memory()));
            assertTrue(java.getMessage().startsWith(text), () -> "Java says '" + java.getMessage() + "', C says '" + text + "'");

            // A C transfer of zero bytes only wraps: the refusal comes from lanehost_ring_wrap, before any transfer.
            IllegalStateException c = assertThrows(IllegalStateException.class,
                    () -> TestHost.transfer(TestHost.Role.CONSUMER, ring, 0, 1));
            assertEquals("lanehost_testhost_transfer failed: " + text + " (" + SpscByteRingDescriptor.STATUS_CORRUPT + ")",
                    c.getMessage());
        }
    }

    private static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> constants = new TreeMap<>();
        for (Field field : SpscByteRingDescriptor.class.getFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                constants.put(field.getName(), ((Number) field.get(null)).longValue());
            }
        }
        return constants;
    }
}
