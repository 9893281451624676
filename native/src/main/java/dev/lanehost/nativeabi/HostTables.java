package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.callgate.CallStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Java's side of {@code host_tables.h} in {@code liblanehost}: the host function tables, whose entries are C
 * trampolines that enter Java only while their entry is open, and the calling thread's last-error sentence,
 * which lives in C so that an entry answered in C and one answered in Java leave it alike.
 *
 * <p>The order of the stubs is C's ({@code lanehost_tables_entry_name}); Java matches each name to its method,
 * so the two sides cannot disagree on it without {@link #open} failing.
 */
final class HostTables {
    /** Bits of the open-entries mask by entry name, in C's order (read once from the library). */
    private static final List<String> ENTRY_NAMES = entryNames();

    private static final MethodHandle RESERVE = LanehostLibrary.downcall("lanehost_tables_reserve",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle OPEN = LanehostLibrary.downcall("lanehost_tables_open",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle RESTRICT = LanehostLibrary.downcall("lanehost_tables_restrict",
            FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT));
    private static final MethodHandle SHUT_DOWN = LanehostLibrary.downcall("lanehost_tables_shut_down",
            FunctionDescriptor.ofVoid());
    private static final MethodHandle LAST_ERROR = LanehostLibrary.downcall("lanehost_last_error",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    /** Critical: the sentence's bytes are passed from the heap, so setting it allocates no native memory. */
    private static final MethodHandle ERROR_SET = LanehostLibrary.downcall("lanehost_error_set",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), Linker.Option.critical(true));

    /** The entries that still enter Java once the host ABI has closed: lanes follow their runtime, references are given back. */
    static final int AFTER_HOST_ABI_CLOSE = bits("lane_drive", "lane_bind", "lane_release", "ring_release");
    /** The one that still enters Java once both have closed: a reference given back may free a ring's memory. */
    static final int AFTER_RUNTIME_CLOSE = bits("ring_release");

    /** Set once a table has opened: before that, a shutdown has no library to tell. */
    private static volatile boolean anyOpened;

    private HostTables() {
    }

    /** The process has opened every host ABI it can (or the JVM is ending): the message says which. */
    static final class Exhausted extends IllegalStateException {
        Exhausted(String message) {
            super(message);
        }
    }

    /**
     * Takes the next of the process's trampoline sets: its number is the new table's instance.
     *
     * @throws Exhausted when the process has opened every table it can
     */
    static int reserve() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment instance = call.allocate(JAVA_INT);
            int status = (int) RESERVE.invokeExact(instance);
            if (status != CallStatus.OK.code()) {
                throw new Exhausted(lastError());
            }
            return instance.get(JAVA_INT, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_tables_reserve failed", e);
        }
    }

    /**
     * Makes the stubs for {@code entries} (they live for the rest of the process) and opens table {@code instance}
     * over them. @return the {@code const lanehost_api *}, valid for the life of the process
     */
    static MemorySegment open(int instance, HostEntries entries, Map<String, FunctionDescriptor> descriptors) {
        Arena forever = Arena.global(); // the stubs must outlive every host thread that could still call
        MemorySegment stubs = forever.allocate(ADDRESS, ENTRY_NAMES.size());
        for (int index = 0; index < ENTRY_NAMES.size(); index++) {
            String name = ENTRY_NAMES.get(index);
            FunctionDescriptor descriptor = descriptors.get(name);
            if (descriptor == null) {
                throw new IllegalStateException("liblanehost names an entry Java does not know: " + name);
            }
            stubs.setAtIndex(ADDRESS, index, stub(entries, name, descriptor, forever));
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment table = call.allocate(ADDRESS);
            int status = (int) OPEN.invokeExact(instance, stubs, ENTRY_NAMES.size(), table);
            if (status != CallStatus.OK.code()) {
                throw new IllegalStateException(lastError());
            }
            anyOpened = true;
            return table.get(ADDRESS, 0).reinterpret(HostAbiDescriptor.API_SIZE).asReadOnly();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_tables_open failed", e);
        }
    }

    /** Keeps only {@code openEntries} of the table open (bits once cleared stay cleared). */
    static void restrict(int instance, int openEntries) {
        try {
            RESTRICT.invokeExact(instance, openEntries);
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_tables_restrict failed", e);
        }
    }

    /** The JVM is about to end: no entry of any table may enter it again. Nothing to do if no table was opened. */
    static void shutDown() {
        if (anyOpened) {
            try {
                SHUT_DOWN.invokeExact();
            } catch (Throwable e) {
                throw new IllegalStateException("lanehost_tables_shut_down failed", e);
            }
        }
    }

    /** Sets the calling thread's sentence, as {@code last_error} will answer it. Throws only what a downcall may. */
    static void setLastError(String sentence) throws Throwable {
        byte[] bytes = sentence.getBytes(StandardCharsets.UTF_8);
        ERROR_SET.invokeExact(MemorySegment.ofArray(bytes), (long) bytes.length);
    }

    /** The calling thread's sentence as {@code last_error} answers it. */
    static String lastError() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buffer = call.allocate(4096);
            MemorySegment length = call.allocate(JAVA_LONG);
            int status = (int) LAST_ERROR.invokeExact(buffer, buffer.byteSize(), length);
            return status == CallStatus.OK.code() ? buffer.getString(0) : "(last_error answered " + status + ")";
        } catch (Throwable e) {
            throw new IllegalStateException("lanehost_last_error failed", e);
        }
    }

    private static MemorySegment stub(HostEntries entries, String name, FunctionDescriptor descriptor, Arena arena) {
        String method = camelCase(name);
        try {
            MethodHandle target = MethodHandles.lookup()
                    .findVirtual(HostEntries.class, method, descriptor.toMethodType()).bindTo(entries);
            return Linker.nativeLinker().upcallStub(target, descriptor, arena);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the host entry " + method + " does not match its descriptor", e);
        }
    }

    /** "gate_call_on_lane" to "gateCallOnLane", "lane_lookup_n" to "laneLookupN". */
    private static String camelCase(String name) {
        StringBuilder camel = new StringBuilder(name.length());
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return camel.toString();
    }

    private static int bits(String... names) {
        int bits = 0;
        for (String name : names) {
            int index = ENTRY_NAMES.indexOf(name);
            if (index < 0) {
                throw new IllegalStateException("liblanehost has no entry named " + name);
            }
            bits |= 1 << index;
        }
        return bits;
    }

    private static List<String> entryNames() {
        MethodHandle nameAt = LanehostLibrary.downcall("lanehost_tables_entry_name", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        List<String> names = new ArrayList<>();
        try {
            for (int index = 0; ; index++) {
                MemorySegment name = (MemorySegment) nameAt.invokeExact(index);
                if (name.equals(MemorySegment.NULL)) {
                    return List.copyOf(names);
                }
                names.add(name.reinterpret(Long.MAX_VALUE).getString(0));
            }
        } catch (Throwable e) {
            throw new IllegalStateException("reading liblanehost's entry names failed", e);
        }
    }
}
