package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.nativeabi.internal.HandleTable;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Whose a handle is: two runtimes in one process issue different handles, and each table refuses the other's
 * (INVALID_ARGUMENT, saying so) for every kind the host ABI issues; a handle this table issued whose object has
 * since closed or been released answers CLOSED, for every kind that can go away while the host ABI is open.
 */
class HandleOwnershipTest {
    private static final long SECONDS_30 = TimeUnit.SECONDS.toNanos(30);

    private final Side a = new Side("A");
    private final Side b = new Side("B");

    @AfterEach
    void stop() {
        a.close();
        b.close();
    }

    /** One runtime, its host ABI, and one export of every kind, made in the same order on both sides. */
    private static final class Side {
        final String name;
        final ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        final HostAbi abi = HostAbi.open(runtime);
        final HostTable table = new HostTable(abi.table());
        final ExecutionLane laneObject;
        final CallGate gateObject;
        final long lane;
        final long gate;
        final long signal;
        final HostRing ring;
        final long ringReference;

        Side(String name) {
            this.name = name;
            try {
                laneObject = runtime.registerLane("frame");
                lane = abi.exportLane(laneObject);
                gateObject = CallGate.open(runtime.spawn("answerer", () -> (c, m) -> { }), (c, args) -> name);
                gate = abi.exportGate("who", gateObject);
                CompletableFuture<Signal> created = new CompletableFuture<>();
                runtime.spawn("listener", () -> new Behavior() {
                    @Override
                    public void started(ActorContext context) {
                        created.complete(context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null));
                    }

                    @Override
                    public void receive(ActorContext context, Object message) {
                    }
                });
                signal = abi.exportSignal("tick", created.get(30, TimeUnit.SECONDS));
                ring = abi.exportRing("capture", 4096);
                MemorySegment out = table.allocate(8);
                MemorySegment memory = table.allocate(8);
                MemorySegment length = table.allocate(8);
                assertEquals(0, (int) entry(HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP)
                        .invokeExact(table.cString("capture"), out.address(), memory.address(), length.address()));
                ringReference = out.get(JAVA_LONG, 0);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        }

        MethodHandle entry(int offset, java.lang.foreign.FunctionDescriptor descriptor) {
            return table.entry(offset, descriptor);
        }

        int gateCall(long gateHandle) throws Throwable {
            MemorySegment result = table.allocate(64);
            MemorySegment length = table.allocate(8);
            return (int) entry(HostAbiDescriptor.GATE_CALL_OFFSET, HostAbiDescriptor.GATE_CALL)
                    .invokeExact(gateHandle, 0L, 0L, result.address(), 64L, length.address(), SECONDS_30);
        }

        int gateCallOnLane(long gateHandle, long laneHandle) throws Throwable {
            MemorySegment result = table.allocate(64);
            MemorySegment length = table.allocate(8);
            return (int) entry(HostAbiDescriptor.GATE_CALL_ON_LANE_OFFSET, HostAbiDescriptor.GATE_CALL_ON_LANE)
                    .invokeExact(gateHandle, laneHandle, 0L, 0L, result.address(), 64L, length.address(), 0);
        }

        int drive(long laneHandle) throws Throwable {
            return (int) entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE).invokeExact(laneHandle, 0, 0L);
        }

        int bind(long laneHandle) throws Throwable {
            return (int) entry(HostAbiDescriptor.LANE_BIND_OFFSET, HostAbiDescriptor.LANE_BIND).invokeExact(laneHandle);
        }

        int release(long laneHandle) throws Throwable {
            return (int) entry(HostAbiDescriptor.LANE_RELEASE_OFFSET, HostAbiDescriptor.LANE_RELEASE).invokeExact(laneHandle);
        }

        int fire(long signalHandle) throws Throwable {
            return (int) entry(HostAbiDescriptor.SIGNAL_FIRE_OFFSET, HostAbiDescriptor.SIGNAL_FIRE).invokeExact(signalHandle, 0L, 0L);
        }

        /** A new reference from ring_lookup. */
        long lookupRing() throws Throwable {
            MemorySegment out = table.allocate(8);
            MemorySegment memory = table.allocate(8);
            MemorySegment length = table.allocate(8);
            assertEquals(0, (int) entry(HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP)
                    .invokeExact(table.cString("capture"), out.address(), memory.address(), length.address()));
            return out.get(JAVA_LONG, 0);
        }

        int releaseRing(long reference) throws Throwable {
            return (int) entry(HostAbiDescriptor.RING_RELEASE_OFFSET, HostAbiDescriptor.RING_RELEASE).invokeExact(reference);
        }

        void close() {
            ring.close();
            abi.close();
            runtime.close();
        }
    }

    @Test
    void twoRuntimesIssueDifferentHandlesForTheSameExports() {
        assertNotEquals(a.lane, b.lane);
        assertNotEquals(a.gate, b.gate);
        assertNotEquals(a.signal, b.signal);
        assertNotEquals(a.ringReference, b.ringReference);
    }

    @Test
    void eachTableAnswersItsOwnHandles() throws Throwable {
        assertEquals(0, b.gateCall(b.gate));
        assertEquals(0, b.drive(b.lane));
        assertEquals(0, b.fire(b.signal));
        assertEquals(0, b.releaseRing(b.ringReference));
    }

    @Test
    void lastErrorIsTheCallingThreadsLastSentenceWhicheverTableItCalledThrough() throws Throwable {
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.drive(a.lane));
        String sentence = b.table.lastError();
        assertTrue(sentence.startsWith("INVALID_ARGUMENT: "), sentence);
        assertEquals(sentence, a.table.lastError(), "as errno: one last error per thread, not per table");
        a.close(); // A's table now answers CLOSED, and that is the thread's last sentence through B's table too
        assertEquals(CallStatus.CLOSED.code(), a.drive(a.lane));
        assertEquals(a.table.lastError(), b.table.lastError());
        assertTrue(b.table.lastError().startsWith("CLOSED: "), b.table.lastError());
    }

    @Test
    void aGateHandleOfAnotherRuntimeIsRefusedAndNeverCallsThisRuntimesGate() throws Throwable {
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.gateCall(a.gate));
        assertForeign(b, "gate", a.gate);
        assertEquals(0, b.gateObject.callsWithStatus(CallStatus.OK), "B's gate was never called");
    }

    @Test
    void aLaneHandleOfAnotherRuntimeIsRefusedByEveryLaneEntry() throws Throwable {
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.drive(a.lane));
        assertForeign(b, "lane", a.lane);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.bind(a.lane));
        assertForeign(b, "lane", a.lane);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.release(a.lane));
        assertForeign(b, "lane", a.lane);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.gateCallOnLane(b.gate, a.lane));
        assertForeign(b, "lane", a.lane);
        assertEquals(null, b.laneObject.boundThread(), "B's lane was never bound");
    }

    @Test
    void aSignalHandleOfAnotherRuntimeIsRefusedAndFiresNothing() throws Throwable {
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.fire(a.signal));
        assertForeign(b, "signal", a.signal);
        assertEquals(0, a.fire(a.signal), "A's own table still fires it");
    }

    @Test
    void aRingReferenceOfAnotherRuntimeIsRefusedAndReleasesNothing() throws Throwable {
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), b.releaseRing(a.ringReference));
        assertForeign(b, "ring reference", a.ringReference);
        assertEquals(1, b.ring.hostReferences(), "B's reference in the same slot is still held");
        assertEquals(1, a.ring.hostReferences());
    }

    @Test
    void aClosedGatesHandleAnswersClosed() throws Throwable {
        CallGate gate = CallGate.open(a.runtime.spawn("short-lived", () -> (c, m) -> { }), (c, args) -> "x");
        long handle = a.abi.exportGate("short-lived", gate);
        gate.close();
        assertEquals(CallStatus.CLOSED.code(), a.gateCall(handle));
        String error = a.table.lastError();
        assertTrue(error.startsWith("CLOSED: gate handle 0x" + Long.toHexString(handle) + " was closed"), error);
    }

    @Test
    void aSignalThatCanFireNoMoreAnswersClosed() throws Throwable {
        CompletableFuture<Signal> created = new CompletableFuture<>();
        a.runtime.spawn("once", () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                created.complete(context.signal(SignalMode.ONE_SHOT, (c, payload) -> { }, null));
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
        long handle = a.abi.exportSignal("once", created.get(30, TimeUnit.SECONDS));
        assertEquals(0, a.fire(handle));
        assertEquals(CallStatus.CLOSED.code(), a.fire(handle), "the one-shot fired and left the table");
        assertTrue(a.table.lastError().startsWith("CLOSED: signal handle 0x" + Long.toHexString(handle) + " was closed"),
                a.table.lastError());
    }

    /** Each lookup's reference is its own value: a second release of one is refused and leaves the others held. */
    @Test
    void aRingReferenceReleasedTwiceIsRefusedAndReleasesNoOtherHoldersReference() throws Throwable {
        long first = a.ringReference;
        assertEquals(0, a.releaseRing(first));
        long second = a.lookupRing();
        assertNotEquals(first, second, "a released reference's value is never issued again");
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), a.releaseRing(first));
        assertTrue(a.table.lastError().contains("was released already"), a.table.lastError());
        assertEquals(1, a.ring.hostReferences(), "the second reference is still held");
        assertEquals(0, a.releaseRing(second));
        assertEquals(0, a.ring.hostReferences());
    }

    @Test
    void aHandleNeverIssuedOrOfAnotherKindIsInvalid() throws Throwable {
        long neverIssuedGeneration = a.gate + (1L << HandleTable.SLOT_BITS);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), a.gateCall(neverIssuedGeneration));
        assertTrue(a.table.lastError().contains("was never issued by this host ABI"), a.table.lastError());
        long neverIssuedSlot = a.gate + 1000;
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), a.gateCall(neverIssuedSlot));
        assertTrue(a.table.lastError().contains("was never issued by this host ABI"), a.table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), a.gateCall(a.lane));
        assertTrue(a.table.lastError().contains("is not a gate handle"), a.table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), a.gateCall(0));
    }

    @Test
    void theFuzzersHandleLayoutIsTheTables() {
        assertEquals(HandleTable.SLOT_BITS, TestHost.handleBits(0), "slot bits");
        assertEquals(HandleTable.GENERATION_BITS, TestHost.handleBits(1), "generation bits");
        assertEquals(HandleTable.INSTANCE_BITS, TestHost.handleBits(2), "instance bits");
        assertEquals(HandleTable.CHECK_BITS, TestHost.handleBits(3), "check bits");
        for (long handle : new long[] {a.gate, a.lane, a.ringReference, b.gate, b.lane}) {
            assertEquals(handle & 0xFF, TestHost.handleCheck(handle), "the fuzzer's check byte of 0x" + Long.toHexString(handle));
        }
    }

    private static void assertForeign(Side side, String kind, long handle) throws Throwable {
        String error = side.table.lastError();
        assertTrue(error.equals("INVALID_ARGUMENT: " + kind + " handle 0x" + Long.toHexString(handle)
                + " belongs to another runtime's host ABI, not this one"), error);
    }
}
