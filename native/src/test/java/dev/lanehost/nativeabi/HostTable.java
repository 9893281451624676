package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/** The host ABI table called from Java through downcalls, the way C would call it, for tests. */
final class HostTable {
    private final MemorySegment table;
    private final Arena arena = Arena.ofAuto();

    HostTable(MemorySegment table) {
        this.table = table;
    }

    MethodHandle entry(int offset, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(table.get(ADDRESS, offset), descriptor);
    }

    long cString(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        MemorySegment segment = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return segment.address();
    }

    MemorySegment allocate(long bytes) {
        return arena.allocate(bytes, 16);
    }

    int lookup(int offset, String name, MemorySegment out) throws Throwable {
        return (int) entry(offset, HostAbiDescriptor.LANE_LOOKUP).invokeExact(cString(name), out.address());
    }

    /** The calling thread's last error text. */
    String lastError() throws Throwable {
        MemorySegment buffer = allocate(1024);
        MemorySegment length = allocate(8);
        int status = (int) entry(HostAbiDescriptor.LAST_ERROR_OFFSET, HostAbiDescriptor.LAST_ERROR)
                .invokeExact(buffer.address(), 1024L, length.address());
        if (status != 0) {
            throw new AssertionError("last_error returned " + status);
        }
        return buffer.getString(0);
    }
}
