package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.ring.SpscByteRingDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** A host's ring reference outlives the host ABI: releasing it after close is honoured and frees the memory. */
class HostRingReleaseTest {

    @Test
    void aReferenceReleasedAfterTheHostAbiClosesIsHonouredAndFreesTheMemory() throws Throwable {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             Arena arena = Arena.ofConfined()) {
            HostAbi abi = HostAbi.open(runtime);
            HostRing ring = abi.exportRing("samples", 4096);
            MethodHandle lookup = entry(abi, HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
            MethodHandle release = entry(abi, HostAbiDescriptor.RING_RELEASE_OFFSET, HostAbiDescriptor.RING_RELEASE);
            MemorySegment name = arena.allocateFrom("samples");
            MemorySegment reference = arena.allocate(JAVA_LONG);
            MemorySegment memory = arena.allocate(ADDRESS);
            MemorySegment length = arena.allocate(JAVA_LONG);
            assertEquals(CallStatus.OK.code(), (int) lookup.invokeExact(name.address(), reference.address(),
                    memory.address(), length.address()));
            long handle = reference.get(JAVA_LONG, 0);

            abi.close();
            ring.close();
            assertTrue(ring.isMemoryLive(), "the host still holds a reference");

            assertEquals(CallStatus.OK.code(), (int) release.invokeExact(handle), "the release after close");
            assertFalse(ring.isMemoryLive(), "the last holder let go");
            assertEquals(CallStatus.CLOSED.code(), (int) release.invokeExact(handle), "a second release: the reference was released");
        }
    }

    @Test
    void aHostHoldingAReferenceSeesInTheRingsHeaderThatJavaClosedIt() throws Throwable {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             Arena arena = Arena.ofConfined();
             HostAbi abi = HostAbi.open(runtime)) {
            HostRing ring = abi.exportRing("samples", 4096);
            MethodHandle lookup = entry(abi, HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
            MethodHandle release = entry(abi, HostAbiDescriptor.RING_RELEASE_OFFSET, HostAbiDescriptor.RING_RELEASE);
            MemorySegment reference = arena.allocate(JAVA_LONG);
            MemorySegment memory = arena.allocate(ADDRESS);
            MemorySegment length = arena.allocate(JAVA_LONG);
            assertEquals(CallStatus.OK.code(), (int) lookup.invokeExact(arena.allocateFrom("samples").address(),
                    reference.address(), memory.address(), length.address()));
            // What the host reads: the header word at the address ring_lookup handed out.
            MemorySegment hostView = memory.get(ADDRESS, 0).reinterpret(SpscByteRingDescriptor.HEADER_LENGTH);
            assertEquals(0, hostView.get(JAVA_INT, SpscByteRingDescriptor.OWNER_CLOSED_OFFSET), "open");

            ring.close();
            assertTrue(ring.isMemoryLive(), "the host's reference keeps the memory");
            assertEquals(1, hostView.get(JAVA_INT, SpscByteRingDescriptor.OWNER_CLOSED_OFFSET),
                    "the host can tell that Java let go, and release its reference");
            assertTrue(ring.ring().isOwnerClosed());
            assertEquals(CallStatus.OK.code(), (int) release.invokeExact(reference.get(JAVA_LONG, 0)));
            assertFalse(ring.isMemoryLive());
        }
    }

    private static MethodHandle entry(HostAbi abi, int offset, java.lang.foreign.FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(abi.table().get(ADDRESS, offset), descriptor);
    }
}
