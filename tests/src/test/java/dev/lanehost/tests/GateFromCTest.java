package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostAbiDescriptor;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every call status, reached from a pthread of the C test host through the host ABI table's gate entries
 * ({@code gate_call}, {@code gate_call_on_lane}), with CBOR buffers in C memory.
 */
class GateFromCTest {
    private static final long SECONDS_30 = TimeUnit.SECONDS.toNanos(30);
    private static final PlainCodec CODEC = new PlainCodec();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment result = arena.allocate(4096);
    private final MemorySegment resultLength = arena.allocate(ValueLayout.JAVA_LONG);
    private ActorRuntime runtime;
    private HostAbi abi;
    private MemorySegment call;
    private MemorySegment callOnLane;
    private int gates;

    @BeforeEach
    void start() {
        runtime = ActorRuntime.create(Profile.HOSTED);
        abi = HostAbi.open(runtime);
        call = abi.table().get(ValueLayout.ADDRESS, HostAbiDescriptor.GATE_CALL_OFFSET);
        callOnLane = abi.table().get(ValueLayout.ADDRESS, HostAbiDescriptor.GATE_CALL_ON_LANE_OFFSET);
    }

    @AfterEach
    void stop() {
        abi.close();
        runtime.close();
        arena.close();
    }

    private long export(CallGate gate) {
        return abi.exportGate("gate-" + ++gates, gate);
    }

    private MemorySegment cbor(Object value) throws Exception {
        byte[] bytes = CODEC.encode(value);
        MemorySegment segment = arena.allocate(Math.max(1, bytes.length));
        MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return segment.asSlice(0, bytes.length);
    }

    private Object resultValue() throws Exception {
        byte[] bytes = result.asSlice(0, resultLength.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
        return CODEC.decode(bytes, 0, bytes.length);
    }

    private CallStatus callFromC(long gate, MemorySegment args, long capacity, long timeoutNanos) {
        resultLength.set(ValueLayout.JAVA_LONG, 0, 777L); // every answer but OK and OUT_OF_MEMORY stores 0
        int code = TestHost.gateCallOnNewThread(MemorySegment.NULL, call, gate, args, args.byteSize(), result, capacity,
                resultLength, timeoutNanos);
        return CallStatus.ofCode(code);
    }

    private long echoGate() {
        ActorRef actor = runtime.spawn("echo", () -> (c, m) -> { });
        return export(CallGate.open(actor, (context, args) -> args == null ? "no arguments" : Map.of("echo", args)));
    }

    @Test
    void okFromAForeignThread() throws Exception {
        long gate = echoGate();
        assertEquals(CallStatus.OK, callFromC(gate, cbor(List.of(1, "two")), 4096, SECONDS_30));
        assertEquals(Map.of("echo", List.of(1L, "two")), resultValue());
        assertEquals(CallStatus.OK, callFromC(gate, MemorySegment.NULL, 4096, SECONDS_30), "no arguments");
        assertEquals("no arguments", resultValue());
    }

    @Test
    void badHandlesPointersLengthsAndCborAreInvalidArguments() throws Exception {
        long gate = echoGate();
        MemorySegment args = cbor("x");
        assertEquals(CallStatus.INVALID_ARGUMENT, callFromC(12345, args, 4096, SECONDS_30), "made-up handle");
        assertEquals(0L, resultLength.get(ValueLayout.JAVA_LONG, 0), "*result_length after INVALID_ARGUMENT");
        abi.close(); // a fresh table for the rest: the old one answers CLOSED now
        assertEquals(CallStatus.CLOSED, callFromC(gate, args, 4096, SECONDS_30), "a closed host ABI");
        abi = HostAbi.open(runtime);
        call = abi.table().get(ValueLayout.ADDRESS, HostAbiDescriptor.GATE_CALL_OFFSET);
        long closedGate = echoGate();
        CallGate toClose = CallGate.open(runtime.spawn("closing", () -> (c, m) -> { }), (context, a) -> "x");
        long closing = export(toClose);
        toClose.close();
        assertEquals(CallStatus.CLOSED, callFromC(closing, args, 4096, SECONDS_30), "a closed gate's handle");
        assertEquals(CallStatus.INVALID_ARGUMENT, callFromC(closedGate ^ (1L << 20), args, 4096, SECONDS_30), "another generation");
        long live = echoGate();
        assertEquals(CallStatus.INVALID_ARGUMENT, CallStatus.ofCode(TestHost.gateCallOnNewThread(MemorySegment.NULL, call,
                live, MemorySegment.NULL, 10, result, 4096, resultLength, SECONDS_30)), "NULL args with a length");
        assertEquals(CallStatus.INVALID_ARGUMENT, CallStatus.ofCode(TestHost.gateCallOnNewThread(MemorySegment.NULL, call,
                live, args, args.byteSize(), MemorySegment.NULL, 4096, resultLength, SECONDS_30)), "NULL result buffer");
        assertEquals(CallStatus.INVALID_ARGUMENT, CallStatus.ofCode(TestHost.gateCallOnNewThread(MemorySegment.NULL, call,
                live, args, args.byteSize(), result, 4096, MemorySegment.NULL, SECONDS_30)), "NULL result length");
        assertEquals(CallStatus.INVALID_ARGUMENT, CallStatus.ofCode(TestHost.gateCallOnNewThread(MemorySegment.NULL, call,
                live, args, -1, result, 4096, resultLength, SECONDS_30)), "negative length");
        assertEquals(CallStatus.INVALID_ARGUMENT, callFromC(live, args, 4096, -1), "negative timeout");
        MemorySegment truncated = arena.allocate(2);
        truncated.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x62); // a 2-byte text string with one byte present
        truncated.set(ValueLayout.JAVA_BYTE, 1, (byte) 'a');
        assertEquals(CallStatus.INVALID_ARGUMENT, callFromC(live, truncated, 4096, SECONDS_30), "malformed CBOR");
        assertEquals(0L, resultLength.get(ValueLayout.JAVA_LONG, 0), "*result_length after malformed CBOR");
    }

    @Test
    void aResultLargerThanTheBufferIsOutOfMemoryAndSaysTheSizeNeeded() throws Exception {
        long gate = echoGate();
        assertEquals(CallStatus.OUT_OF_MEMORY, callFromC(gate, cbor("y".repeat(200)), 16, SECONDS_30));
        assertTrue(resultLength.get(ValueLayout.JAVA_LONG, 0) > 200);
    }

    @Test
    void notSerializableFailedTerminatedRefusedClosedAndTimedOut() throws Exception {
        ActorRef actor = runtime.spawn("many", () -> (c, m) -> { });
        CountDownLatch release = new CountDownLatch(1);
        CallGate gate = CallGate.open(actor, (context, args) -> switch ((String) args) {
            case "cycle" -> {
                List<Object> self = new ArrayList<>();
                self.add(self);
                yield self;
            }
            case "block" -> {
                release.await();
                yield "released";
            }
            case "throw" -> throw new IllegalStateException("handler failed");
            default -> "ok";
        }, 1, 1 << 20);
        long handle = export(gate);
        assertEquals(CallStatus.NOT_SERIALIZABLE, callFromC(handle, cbor("cycle"), 4096, SECONDS_30));
        try {
            assertEquals(CallStatus.TIMED_OUT, callFromC(handle, cbor("block"), 4096, TimeUnit.MILLISECONDS.toNanos(50)));
            assertEquals(CallStatus.REFUSED, callFromC(handle, cbor("plain"), 4096, SECONDS_30), "the blocked call holds the one slot");
        } finally {
            release.countDown();
        }
        CallGateTestSupport.awaitTrue(() -> gate.pendingCalls() == 0 && gate.discardedResults() == 1);
        assertEquals(CallStatus.CALLBACK_FAILED, callFromC(handle, cbor("throw"), 4096, SECONDS_30));
        CallGateTestSupport.awaitTrue(actor::isTerminated);
        assertEquals(CallStatus.ACTOR_TERMINATED, callFromC(handle, cbor("plain"), 4096, SECONDS_30));
        gate.close();
        assertEquals(CallStatus.CLOSED, callFromC(handle, cbor("plain"), 4096, SECONDS_30),
                "a closed gate leaves the table; its handle answers CLOSED");
        long live = echoGate();
        abi.close();
        assertEquals(CallStatus.CLOSED, callFromC(live, cbor("plain"), 4096, SECONDS_30), "the host ABI closed");
    }

    @Test
    void theBlockingEntryFromTheLanesOwnPthreadIsWrongThread() throws Exception {
        long lane = abi.exportLane(runtime.registerLane("audio"));
        ActorRef actor = runtime.spawnOnLane("audio", "synth", () -> (c, m) -> { });
        long handle = export(CallGate.open(actor, (context, args) -> "never"));
        MemorySegment args = cbor("x");
        try (TestHost.HostThread host = TestHost.startHostThread(abi.table())) {
            assertEquals(CallStatus.OK.code(), host.drive(lane, 0, MemorySegment.NULL), "binds the lane to the pthread");
            int code = host.run(TestHost.HostThread.GATE_CALL, 0, handle, 0, args, args.byteSize(), result, 4096,
                    resultLength, SECONDS_30, MemorySegment.NULL);
            assertEquals(CallStatus.WRONG_THREAD, CallStatus.ofCode(code));
        }
    }


    @Test
    void callOnLaneFromAForeignThreadOkTimedOutSuspendedAndWrongThread() throws Exception {
        ExecutionLane lane = runtime.registerLane("frame");
        long laneHandle = abi.exportLane(lane);
        CountDownLatch busyHandled = new CountDownLatch(1);
        ActorRef busy = runtime.spawnOnLane("frame", "busy", () -> (c, m) -> busyHandled.countDown());
        ActorRef actor = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
        busy.tell("queued before the call");
        long gate = export(CallGate.open(actor, (context, args) ->
                "suspend".equals(args) ? new CompletableFuture<>() : List.of("rendered", args)));
        MemorySegment args = cbor("frame 1");

        try (TestHost.HostThread bound = TestHost.startHostThread(abi.table())) {
            // The host thread binds the lane and gets its answer by driving it.
            assertEquals(CallStatus.OK, CallStatus.ofCode(bound.run(TestHost.HostThread.GATE_CALL_ON_LANE, laneHandle, gate, 0,
                    args, args.byteSize(), result, 4096, resultLength, 0, MemorySegment.NULL)));
            assertEquals(List.of("rendered", "frame 1"), resultValue());
            assertTrue(busyHandled.await(30, TimeUnit.SECONDS), "the call's drive also ran the older work queued on the lane");
            // Any other pthread is refused while the bound one lives.
            assertEquals(CallStatus.WRONG_THREAD, CallStatus.ofCode(TestHost.gateCallOnLaneOnNewThread(callOnLane, gate, laneHandle,
                    args, args.byteSize(), result, 4096, resultLength, 0)));
        }
        assertEquals(CallStatus.INVALID_ARGUMENT, CallStatus.ofCode(TestHost.gateCallOnLaneOnNewThread(callOnLane, gate, 999,
                args, args.byteSize(), result, 4096, resultLength, 0)), "unknown lane handle");
        // TIMED_OUT and CALLBACK_SUSPENDED need the bound thread: a fresh lane per case.
        ExecutionLane second = runtime.registerLane("frame2");
        long secondHandle = abi.exportLane(second);
        ActorRef older = runtime.spawnOnLane("frame2", "older", () -> (c, m) -> { });
        ActorRef target = runtime.spawnOnLane("frame2", "target", () -> (c, m) -> { });
        long targetGate = export(CallGate.open(target, (context, a) ->
                "suspend".equals(a) ? new CompletableFuture<>() : "ok"));
        for (int i = 0; i < 5; i++) {
            older.tell(i);
        }
        assertEquals(CallStatus.TIMED_OUT, CallStatus.ofCode(TestHost.gateCallOnLaneOnNewThread(callOnLane, targetGate,
                secondHandle, args, args.byteSize(), result, 4096, resultLength, 3)));
        ExecutionLane third = runtime.registerLane("frame3");
        long thirdHandle = abi.exportLane(third);
        ActorRef async = runtime.spawnOnLane("frame3", "async", () -> (c, m) -> { });
        long asyncGate = export(CallGate.open(async, (context, a) -> new CompletableFuture<>()));
        assertEquals(CallStatus.CALLBACK_SUSPENDED, CallStatus.ofCode(TestHost.gateCallOnLaneOnNewThread(callOnLane, asyncGate,
                thirdHandle, args, args.byteSize(), result, 4096, resultLength, 0)));
        assertTrue(async.isTerminated(), "a handler that suspends inside callOnLane disrupts its actor");
        assertFalse(busy.isTerminated(), "refused calls and another actor's disruption leave the lane's other actors alone");
    }
}
