package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * liblanehost_embed called from inside a JVM that is already running (this test's, started by the java
 * launcher): it must find and reuse that JVM rather than load a second libjvm, and load its bootstrap class
 * even though the calling thread's only Java frames belong to the JDK's downcall machinery.
 * (lanehost_embed_shutdown is not called here: if it wrongly accepted, it would end this JVM. test_embed's
 * "running-jvm" scenario checks that refusal in a child process.)
 */
class EmbedInRunningJvmTest {
    private static final Path LIBRARY = Path.of(System.getProperty("lanehost.cmake.dir", "target/cmake"),
            "liblanehost_embed.so");
    /** lanehost_embed_options, version 1, as lanehost_embed.h declares it. */
    private static final StructLayout OPTIONS = MemoryLayout.structLayout(
            JAVA_INT.withName("size"), JAVA_INT.withName("version"),
            ADDRESS.withName("java_home"), ADDRESS.withName("class_path"), ADDRESS.withName("setup_class"),
            ADDRESS.withName("jvm_options"), JAVA_INT.withName("jvm_option_count"), JAVA_INT.withName("reserved"));
    private static final String FRAMES = EmbedSetups.Frames.class.getName();

    private final Arena arena = Arena.ofAuto();
    private final SymbolLookup library = SymbolLookup.libraryLookup(LIBRARY, arena);
    private final MethodHandle start = downcall("lanehost_embed_start", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle stop = downcall("lanehost_embed_stop", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private final MethodHandle lastError = downcall("lanehost_embed_last_error", FunctionDescriptor.of(ADDRESS));

    private MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(library.findOrThrow(name), descriptor);
    }

    private MemorySegment options(String classPath, String setupClass) {
        MemorySegment options = arena.allocate(OPTIONS);
        options.set(JAVA_INT, OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("size")), (int) OPTIONS.byteSize());
        options.set(JAVA_INT, OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("version")), 1);
        options.set(ADDRESS, OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("class_path")),
                classPath == null ? MemorySegment.NULL : arena.allocateFrom(classPath));
        options.set(ADDRESS, OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("setup_class")),
                arena.allocateFrom(setupClass));
        return options;
    }

    private String lastError() throws Throwable {
        return ((MemorySegment) lastError.invokeExact()).reinterpret(Long.MAX_VALUE).getString(0);
    }

    @Test
    void startsARuntimeInTheRunningJvmAndAForeignThreadDrivesItsLane() throws Throwable {
        MemorySegment embedOut = arena.allocate(ADDRESS);
        MemorySegment apiOut = arena.allocate(ADDRESS);
        int status = (int) start.invokeExact(options(null, FRAMES), embedOut, apiOut);
        assertEquals(CallStatus.OK.code(), status, "lanehost_embed_start: " + lastError());
        MemorySegment embed = embedOut.get(ADDRESS, 0);
        MemorySegment api = apiOut.get(ADDRESS, 0).reinterpret(HostAbiDescriptor.API_SIZE);
        assertNotEquals(MemorySegment.NULL, api);
        HostTable table = new HostTable(api);
        MemorySegment lane = table.allocate(8);
        assertEquals(CallStatus.OK.code(), table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "frame", lane));
        MemorySegment counts = table.allocate(HostAbiDescriptor.DRIVE_COUNTS_SIZE);
        // A thread of its own: the first drive binds the lane to it and names it after the lane.
        CompletableFuture<Integer> driven = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                driven.complete((int) table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE)
                        .invokeExact(lane.get(JAVA_LONG, 0), 0, counts.address()));
            } catch (Throwable t) {
                driven.completeExceptionally(t);
            }
        });
        assertEquals(CallStatus.OK.code(), driven.get(30, TimeUnit.SECONDS));
        assertEquals(1, counts.get(JAVA_INT, HostAbiDescriptor.DRIVE_COUNTS_TURNS_OFFSET), "the lane actor's start");
        assertEquals(CallStatus.OK.code(), (int) stop.invokeExact(embed), lastError());
    }

    @Test
    void aClassPathForAJvmItDidNotStartIsRefused() throws Throwable {
        MemorySegment embedOut = arena.allocate(ADDRESS);
        MemorySegment apiOut = arena.allocate(ADDRESS);
        int status = (int) start.invokeExact(options("/somewhere/else.jar", FRAMES), embedOut, apiOut);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), status);
        assertTrue(lastError().contains("a JVM lanehost did not start already runs in this process"), lastError());
        assertEquals(MemorySegment.NULL, embedOut.get(ADDRESS, 0));
        assertEquals(MemorySegment.NULL, apiOut.get(ADDRESS, 0));
    }
}
