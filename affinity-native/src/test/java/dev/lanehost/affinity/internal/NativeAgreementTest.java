package dev.lanehost.affinity.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.affinity.AffinityStatus;
import dev.lanehost.affinity.SchedClass;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The C header and the Java mirrors agree: every status, scheduling class, capability id and record offset, by name. */
class NativeAgreementTest {
    private final AffinityLibrary library = AffinityLibrary.system();

    @Test
    void libraryLoadsFromTheBundledCopy() {
        assumeTrue(System.getProperty(dev.lanehost.nativeloader.NativeLibraryLoader.PATH_PROPERTY) == null,
                "needs the default search: -D" + dev.lanehost.nativeloader.NativeLibraryLoader.PATH_PROPERTY + " names another copy");
        assertTrue(library.available(), library.unavailableReason());
        assertEquals("step 2: bundled copy", library.library().step());
        assertEquals(AffinityLibrary.ABI_VERSION, library.library().abiVersion());
    }

    @Test
    void everyCConstantEqualsItsJavaMirror() throws IllegalAccessException {
        Map<String, Long> c = new TreeMap<>(library.constants());
        Map<String, Long> java = new TreeMap<>();
        java.put("ABI_VERSION", (long) AffinityLibrary.ABI_VERSION);
        for (AffinityStatus status : AffinityStatus.values()) {
            java.put("STATUS_" + status.name(), (long) status.code());
        }
        for (SchedClass schedClass : SchedClass.values()) {
            if (schedClass != SchedClass.UNKNOWN) { // Java's name for a number the kernel has not given
                java.put(schedClass.toString(), (long) schedClass.code());
            }
        }
        java.putAll(constants(AffinityLibrary.class, "CAP_"));
        java.putAll(constants(CpuRecordLayout.class, ""));
        java.put("BIND_STRICT", 1L);
        java.put("BIND_MOVE", 2L);
        assertEquals(java, c, "C constants report vs Java mirrors");
        assertEquals(CpuRecordLayout.CPU_RECORD_SIZE, CpuRecordLayout.LAYOUT.byteSize());
    }

    @Test
    void statusTextsComeFromTheHeader() {
        for (AffinityStatus status : AffinityStatus.values()) {
            assertTrue(library.statusText(status.code()).startsWith(status.description()),
                    status + ": C says '" + library.statusText(status.code()) + "'");
        }
        assertEquals("unknown lanehost affinity status", library.statusText(77));
        assertEquals(AffinityStatus.OS_ERROR, AffinityStatus.fromCode(77));
    }

    @Test
    void platformMatchesTheLoaders() {
        assertEquals(dev.lanehost.nativeloader.NativeLibraryLoader.platform(), library.platform());
    }

    private static Map<String, Long> constants(Class<?> type, String prefix) throws IllegalAccessException {
        Map<String, Long> constants = new TreeMap<>();
        for (Field field : type.getFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers) && field.getName().startsWith(prefix)
                    && (field.getType() == int.class || field.getType() == long.class) && !field.getName().equals("ABI_VERSION")) {
                constants.put(field.getName(), ((Number) field.get(null)).longValue());
            }
        }
        return constants;
    }
}
