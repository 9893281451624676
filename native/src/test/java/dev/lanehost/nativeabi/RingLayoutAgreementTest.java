package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRingDescriptor;
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
    void statusTextsComeFromTheHeader() {
        assertEquals("ring memory is not 64-byte aligned", LanehostLibrary.ringStatusText(SpscByteRingDescriptor.STATUS_MISALIGNED));
        assertEquals("unknown lanehost ring status", LanehostLibrary.ringStatusText(77));
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
