package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Java's view of {@code liblanehost} ({@code native/include/lanehost/lanehost.h}): its ABI version and
 * the ring and host ABI layouts it was compiled with, and its status names. Downcalls are resolved once, when the class initializes.
 */
public final class LanehostLibrary {
    /** Must equal {@code LANEHOST_ABI_VERSION}; the loader refuses a library built with another. */
    public static final int ABI_VERSION = 3;

    private static final LoadedLibrary LIBRARY =
            NativeLibraryLoader.load(LanehostLibrary.class, "lanehost", "lanehost_abi_version", ABI_VERSION);
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle LAYOUT_NAME = downcall("lanehost_ring_layout_name", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle LAYOUT_VALUE = downcall("lanehost_ring_layout_value", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle STATUS_TEXT = downcall("lanehost_ring_status_text", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle STATUS_NAME = downcall("lanehost_status_name", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle API_LAYOUT_NAME = downcall("lanehost_api_layout_name", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    private static final MethodHandle API_LAYOUT_VALUE = downcall("lanehost_api_layout_value", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));

    private LanehostLibrary() {
    }

    /** Where the library was found and how. */
    public static LoadedLibrary library() {
        return LIBRARY;
    }

    /** Every entry of the C ring layout report, in the header's order: name to value. */
    public static Map<String, Long> ringLayout() {
        return layoutReport("ring", LAYOUT_NAME, LAYOUT_VALUE);
    }

    /** Every entry of the C host ABI table's layout report ({@code lanehost_api}), in the header's order. */
    public static Map<String, Long> apiLayout() {
        return layoutReport("host ABI", API_LAYOUT_NAME, API_LAYOUT_VALUE);
    }

    private static Map<String, Long> layoutReport(String what, MethodHandle nameAt, MethodHandle valueOf) {
        Map<String, Long> layout = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment found = arena.allocate(JAVA_INT);
            for (int index = 0; ; index++) {
                MemorySegment name = (MemorySegment) nameAt.invokeExact(index);
                if (name.equals(MemorySegment.NULL)) {
                    return layout;
                }
                String text = name.reinterpret(Long.MAX_VALUE).getString(0);
                long value = (long) valueOf.invokeExact(name, found);
                layout.put(text, value);
            }
        } catch (Throwable e) {
            throw new IllegalStateException("reading the " + what + " layout report failed", e);
        }
    }

    /** The C library's message for a {@code lanehost_ring_status}. */
    public static String ringStatusText(long status) {
        try {
            MemorySegment text = (MemorySegment) STATUS_TEXT.invokeExact(status);
            return text.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_ring_status_text failed", e);
        }
    }

    /** The enumerator name of {@code lanehost_status} {@code code} without its prefix, or null if C has none. */
    public static String statusName(int code) {
        try {
            MemorySegment name = (MemorySegment) STATUS_NAME.invokeExact(code);
            return name.equals(MemorySegment.NULL) ? null : name.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_status_name failed", e);
        }
    }

    static MethodHandle downcall(LoadedLibrary library, String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(library.lookup().findOrThrow(name), descriptor, options);
    }

    static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return downcall(LIBRARY, name, descriptor, options);
    }
}
