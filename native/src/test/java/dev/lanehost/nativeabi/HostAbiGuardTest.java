package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a buggy host can do to the table and what it gets: function pointers copied out of a closed table answer in
 * C without entering the JVM, pointers no process maps are refused and leave nothing behind, names that run into
 * unmapped memory are refused rather than read, and a million lookups and releases of one ring never hand out a
 * reference value twice.
 */
class HostAbiGuardTest {
    /** lanehost_api's members in the table's order, as TestHost.callEveryEntry reports them. */
    private static final String[] MEMBERS = {"lane_lookup", "lane_drive", "lane_bind", "lane_release", "thread_warm_up",
        "gate_lookup", "gate_call", "gate_call_on_lane", "signal_lookup", "signal_fire", "ring_lookup", "ring_release",
        "last_error", "lane_lookup_n", "gate_lookup_n", "signal_lookup_n", "ring_lookup_n"};
    private static final int RING_RELEASE = 11;
    private static final int LAST_ERROR = 12;
    private static final long BAD_HIGH = 0xdeadbeef00000000L;

    @Test
    void aCopyOfAClosedTableAnswersEveryEntryInCWithoutAttachingTheThread() {
        MemorySegment copy;
        long lane;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            lane = abi.exportLane(runtime.registerLane("frame"));
            copy = Arena.global().allocate(HostAbiDescriptor.API_SIZE, HostAbiDescriptor.API_ALIGNMENT);
            copy.copyFrom(abi.table()); // a struct copy, as a host that keeps the table by value makes
        }
        TestHost.EveryEntry answered = TestHost.callEveryEntry(copy, lane, 1 << RING_RELEASE);
        for (int member = 0; member < MEMBERS.length; member++) {
            if (member != RING_RELEASE) {
                int expected = member == LAST_ERROR ? CallStatus.OK.code() : CallStatus.CLOSED.code();
                assertEquals(expected, answered.statuses()[member], MEMBERS[member]);
            }
        }
        assertEquals(0, answered.attached(), "no entry of a closed table entered the JVM from the new thread");
        // ring_release still enters Java after a close (a held reference's release may free a ring): CLOSED for others.
        assertEquals(CallStatus.CLOSED.code(), TestHost.callEveryEntry(copy, lane, ~(1 << RING_RELEASE)).statuses()[RING_RELEASE]);
    }

    @Test
    void pointersNoProcessMapsAreInvalidAndTakeNoReference() throws Throwable {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime);
             Arena arena = Arena.ofConfined()) {
            HostTable table = new HostTable(abi.table());
            HostRing ring = abi.exportRing("capture", 4096);
            MethodHandle lookup = table.entry(HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
            long out = arena.allocate(8).address();
            for (long bad : new long[] {BAD_HIGH, -1L, 8L, 4095L, 1L << 56}) {
                assertEquals(CallStatus.INVALID_ARGUMENT.code(),
                        (int) lookup.invokeExact(table.cString("capture"), bad, out, out), "ring_out " + Long.toHexString(bad));
                assertTrue(table.lastError().contains("is not memory a process can map"), table.lastError());
                assertEquals(CallStatus.INVALID_ARGUMENT.code(),
                        (int) lookup.invokeExact(table.cString("capture"), out, out, bad), "memory_length_out");
                assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) table.entry(HostAbiDescriptor.LANE_LOOKUP_OFFSET,
                        HostAbiDescriptor.LANE_LOOKUP).invokeExact(bad, out), "a lookup's name");
                assertTrue(table.lastError().contains("not one a process maps memory at"), table.lastError());
            }
            assertEquals(0, ring.hostReferences(), "no refused lookup kept a reference");

            long gate = abi.exportGate("echo", CallGate.open(runtime.spawn("echo", () -> (c, m) -> { }), (c, args) -> args));
            MethodHandle call = table.entry(HostAbiDescriptor.GATE_CALL_OFFSET, HostAbiDescriptor.GATE_CALL);
            long result = arena.allocate(64).address();
            long length = arena.allocate(8).address();
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) call.invokeExact(gate, BAD_HIGH, 4L, result, 64L, length, 1_000_000_000L));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) call.invokeExact(gate, 0L, 0L, -1L, 64L, length, 1_000_000_000L));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) call.invokeExact(gate, 0L, 0L, result, 64L, -1L, 1_000_000_000L));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) table.entry(HostAbiDescriptor.LAST_ERROR_OFFSET,
                    HostAbiDescriptor.LAST_ERROR).invokeExact(result, 64L, BAD_HIGH));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET,
                    HostAbiDescriptor.LANE_DRIVE).invokeExact(abi.exportLane(runtime.registerLane("frame")), 0, -1L));
            assertTrue(table.lastError().contains("counts"), table.lastError());
        }
    }

    @Test
    void aNameThatRunsIntoUnmappedMemoryIsRefusedAndALengthTakingLookupReadsExactlyItsLength() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle mmap = linker.downcallHandle(linker.defaultLookup().findOrThrow("mmap"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        MethodHandle munmap = linker.downcallHandle(linker.defaultLookup().findOrThrow("munmap"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        long page = 4096;
        MemorySegment pages = ((MemorySegment) mmap.invokeExact(MemorySegment.NULL, 2 * page, 3, 0x22, -1, 0L))
                .reinterpret(2 * page); // PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS
        assertEquals(0, (int) munmap.invokeExact(pages.asSlice(page), page));
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            HostTable table = new HostTable(abi.table());
            long lane = abi.exportLane(runtime.registerLane("frame"));
            MemorySegment out = table.allocate(8);
            MemorySegment name = pages.asSlice(page - 5, 5);
            name.copyFrom(MemorySegment.ofArray("frame".getBytes(StandardCharsets.UTF_8))); // no NUL: unmapped after it
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) table.entry(HostAbiDescriptor.LANE_LOOKUP_OFFSET,
                    HostAbiDescriptor.LANE_LOOKUP).invokeExact(name.address(), out.address()));
            assertTrue(table.lastError().contains("runs into unreadable memory before its NUL"), table.lastError());

            MethodHandle lookupN = table.entry(HostAbiDescriptor.LANE_LOOKUP_N_OFFSET, HostAbiDescriptor.LOOKUP_N);
            assertEquals(CallStatus.OK.code(), (int) lookupN.invokeExact(name.address(), 5L, out.address()));
            assertEquals(lane, out.get(JAVA_LONG, 0), "the same five bytes, with their length: found");
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) lookupN.invokeExact(name.address(), 0L, out.address()));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) lookupN.invokeExact(name.address(), 257L, out.address()));
            assertTrue(table.lastError().contains("name_length must be 1..256"), table.lastError());
            MemorySegment withNul = table.allocate(8);
            withNul.copyFrom(MemorySegment.ofArray("fr\0ame".getBytes(StandardCharsets.UTF_8)));
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) lookupN.invokeExact(withNul.address(), 6L, out.address()));
            assertTrue(table.lastError().contains("holds a NUL byte"), table.lastError());
        } finally {
            int unmapped = (int) munmap.invokeExact(pages, page);
            assertEquals(0, unmapped);
        }
    }

    /**
     * Over a million lookups and releases of one ring reuse one slot of the reference table far past the 2^20 reuses
     * after which generations once wrapped: no value comes back, and the first reference, released long ago, is
     * refused, not counted against the one the host holds now.
     */
    @Test
    void aMillionLookupsAndReleasesNeverIssueAReferenceValueTwice() throws Throwable {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            HostTable table = new HostTable(abi.table());
            HostRing ring = abi.exportRing("capture", 4096);
            MethodHandle lookup = table.entry(HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
            MethodHandle release = table.entry(HostAbiDescriptor.RING_RELEASE_OFFSET, HostAbiDescriptor.RING_RELEASE);
            MemorySegment out = table.allocate(24);
            long name = table.cString("capture");
            long first = 0;
            long reference = 0;
            for (int cycle = 0; cycle <= (1 << 20) + 1; cycle++) {
                assertEquals(0, (int) lookup.invokeExact(name, out.address(), out.address() + 8, out.address() + 16));
                reference = out.get(JAVA_LONG, 0);
                if (cycle == 0) {
                    first = reference;
                } else if (reference == first) {
                    throw new AssertionError("the first reference's value came back after " + cycle + " cycles");
                }
                if (cycle <= (1 << 20)) {
                    assertEquals(0, (int) release.invokeExact(reference));
                }
            }
            assertNotEquals(first, reference);
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) release.invokeExact(first), "a stale reference");
            assertTrue(table.lastError().contains("was released already"), table.lastError());
            assertEquals(1, ring.hostReferences(), "the reference held now was not released by the stale one");
            assertEquals(0, (int) release.invokeExact(reference));
            assertEquals(0, ring.hostReferences());
            ring.close();
        }
    }

}
