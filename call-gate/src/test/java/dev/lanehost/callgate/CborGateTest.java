package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.callgate.value.CborIn;
import dev.lanehost.callgate.value.CborType;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Profile;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A gate whose handler reads and writes CBOR in place: what it answers, and that its calls allocate nothing. */
class CborGateTest {
    private static final PlainCodec CODEC = new PlainCodec();
    private static final Duration LONG = Duration.ofSeconds(30);

    /** {"gain": g, "voice": v} → {"gain": g * 2, "voice": v}. */
    private static final CborCallHandler MIXER = (context, in, out) -> {
        double gain = 0;
        long voice = 0;
        int entries = in.readMap();
        for (int i = 0; i < entries; i++) {
            if (in.nextTextIs("gain")) {
                in.skip();
                gain = in.readDouble();
            } else if (in.nextTextIs("voice")) {
                in.skip();
                voice = in.readLong();
            } else {
                in.skip();
                in.skip();
            }
        }
        out.writeMap(2).writeText("gain").writeDouble(gain * 2).writeText("voice").writeLong(voice);
    };

    private static MemorySegment segment(Object value) throws Exception {
        return MemorySegment.ofArray(CODEC.encode(value));
    }

    @Test
    void aCborGateAnswersTheCborEntriesAndJavaCallersAlike() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(mixer, MIXER);
            CallReply reply = new CallReply();
            MemorySegment args = segment(Map.of("voice", 3L, "gain", 0.25, "unknown", List.of(1L)));
            assertEquals(CallStatus.OK, gate.callOnLaneEncoded(lane, args, 0, args.byteSize(), 0, reply), reply.detail());
            assertEquals(Map.of("gain", 0.5, "voice", 3L), CODEC.decode(reply.resultArray(), 0, reply.resultLength()));
            CborIn result = reply.resultReader();
            assertEquals(2, result.readMap());

            CallResult fromJava = gate.callOnLane(lane, Map.of("gain", 1.0, "voice", 4), 0);
            assertEquals(CallStatus.OK, fromJava.status(), fromJava.detail());
            assertEquals(Map.of("gain", 2.0, "voice", 4L), fromJava.value(), "a Java caller's objects are encoded for the handler, its result decoded");
            EncodedCallResult fromBytes = gate.callOnLaneEncoded(lane, CODEC.encode(Map.of("gain", 2.0)), 0);
            assertEquals(Map.of("gain", 4.0, "voice", 0L), CODEC.decode(fromBytes.cbor()));
            assertEquals(3, gate.callsWithStatus(CallStatus.OK));
        }
    }

    @Test
    void theBlockingCborEntryAnswersIntoTheReply() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef mixer = runtime.spawn("mixer", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(mixer, MIXER);
            CallReply reply = new CallReply();
            for (int i = 0; i < 100; i++) {
                MemorySegment args = segment(Map.of("voice", (long) i, "gain", 1.0));
                assertEquals(CallStatus.OK, gate.callEncoded(args, 0, args.byteSize(), LONG.toNanos(), reply), reply.detail());
                assertEquals(Map.of("gain", 2.0, "voice", (long) i), CODEC.decode(reply.resultArray(), 0, reply.resultLength()));
            }
            CallResult fromJava = gate.call(Map.of("gain", 3.0), LONG);
            assertEquals(Map.of("gain", 6.0, "voice", 0L), fromJava.value());
        }
    }

    /**
     * A result of up to 16 encoded bytes comes back in the call's own words, a longer one from the handler's writer:
     * every length from 1 to 21 bytes (a byte string of 0 to 20) comes back byte for byte, through a reply kept from
     * call to call and through the entry that answers in new arrays.
     */
    @Test
    void resultsShortAndLongComeBackByteForByte() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("bytes", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> {
                byte[] bytes = new byte[(int) in.readLong()];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) (0xf0 - 7 * i); // high bits set, and no two alike
                }
                out.writeBytes(bytes, 0, bytes.length);
            });
            CallReply reply = new CallReply();
            for (int count = 0; count <= 20; count++) {
                byte[] expected = new byte[count];
                for (int i = 0; i < count; i++) {
                    expected[i] = (byte) (0xf0 - 7 * i);
                }
                MemorySegment args = segment((long) count);
                assertEquals(CallStatus.OK, gate.callEncoded(args, 0, args.byteSize(), LONG.toNanos(), reply), reply.detail());
                assertEquals(1 + count, reply.resultLength(), "a byte string of " + count + ": its head and its bytes");
                assertEquals(HexFormat.of().formatHex(expected),
                        HexFormat.of().formatHex((byte[]) CODEC.decode(reply.resultArray(), 0, reply.resultLength())), "count " + count);
                EncodedCallResult fresh = gate.callEncoded(CODEC.encode((long) count), LONG.toNanos());
                assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex((byte[]) CODEC.decode(fresh.cbor())),
                        "count " + count + " through the entry that answers in new arrays");
            }
        }
    }

    /**
     * Arguments of every length from 1 to 21 bytes (a byte string of 0 to 20), longest first and then shortest first so
     * that a short one follows a long one in the same kept call, reach the handler byte for byte through a reply kept
     * from call to call, through the entry that takes a new array, and from Java objects.
     */
    @Test
    void argumentsShortAndLongReachTheHandlerByteForByte() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("echo", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> {
                byte[] bytes = new byte[in.nextStringLength()];
                in.readBytes(bytes, 0);
                out.writeBytes(bytes, 0, bytes.length);
            });
            CallReply reply = new CallReply();
            for (int step = 0; step <= 41; step++) {
                int count = step <= 20 ? 20 - step : step - 21;
                byte[] sent = new byte[count];
                for (int i = 0; i < count; i++) {
                    sent[i] = (byte) (0x8f + 13 * i + step); // high bits set, and none alike from one step to the next
                }
                String expected = HexFormat.of().formatHex(sent);
                MemorySegment args = segment(sent);
                assertEquals(1 + count, args.byteSize(), "a byte string of " + count + ": its head and its bytes");
                assertEquals(CallStatus.OK, gate.callEncoded(args, 0, args.byteSize(), LONG.toNanos(), reply), reply.detail());
                assertEquals(expected, HexFormat.of().formatHex((byte[]) CODEC.decode(reply.resultArray(), 0, reply.resultLength())),
                        "count " + count + " through a kept reply");
                EncodedCallResult fresh = gate.callEncoded(CODEC.encode(sent), LONG.toNanos());
                assertEquals(expected, HexFormat.of().formatHex((byte[]) CODEC.decode(fresh.cbor())),
                        "count " + count + " through the entry that takes a new array");
                CallResult plain = gate.call(sent, LONG);
                assertEquals(CallStatus.OK, plain.status(), plain.detail());
                assertEquals(expected, HexFormat.of().formatHex((byte[]) plain.value()), "count " + count + " from Java objects");
            }
        }
    }

    @Test
    void argumentsOfAnotherShapeAnswerInvalidArgumentAndTheActorGoesOn() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(mixer, MIXER);
            CallReply reply = new CallReply();
            MemorySegment args = segment(Map.of("gain", "loud"));
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, args, 0, args.byteSize(), 0, reply));
            assertEquals("the handler: CBOR at byte 6: expected a number, found a text string", reply.detail());
            assertEquals(0, reply.resultLength());
            assertTrue(mixer.exitReason().isEmpty(), "the arguments were wrong, not the actor");
            MemorySegment good = segment(Map.of("gain", 1.0));
            assertEquals(CallStatus.OK, gate.callOnLaneEncoded(lane, good, 0, good.byteSize(), 0, reply));
        }
    }

    @Test
    void malformedArgumentsNeverReachTheHandler() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> ran.incrementAndGet());
            CallReply reply = new CallReply();
            MemorySegment truncated = MemorySegment.ofArray(HexFormat.of().parseHex("a16167"));
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, truncated, 0, 3, 0, reply));
            assertTrue(reply.detail().startsWith("arguments: "), reply.detail());
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, truncated, 2, 3, 0, reply));
            assertTrue(reply.detail().contains("is not inside the 3-byte segment"), reply.detail());
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, truncated, 0, -1, 0, reply));
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, null, 0, 1, 0, reply));
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLaneEncoded(lane, truncated, 0, 3, 0, null));
            assertEquals(0, ran.get());
        }
    }

    @Test
    void theHandlersResultMustBeOneWholeItemAndNothingIsNull() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef actor = runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            AtomicInteger mode = new AtomicInteger();
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> {
                assertTrue(in.readNull(), "no arguments read as null");
                assertEquals(CborType.END, in.next());
                switch (mode.get()) {
                    case 0 -> { } // nothing: null
                    case 1 -> out.writeLong(1).writeLong(2); // two items
                    default -> out.writeMap(1).writeText("half"); // a key without its value
                }
            });
            CallReply reply = new CallReply();
            assertEquals(CallStatus.OK, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 0, reply));
            assertEquals(1, reply.resultLength());
            assertNull(CODEC.decode(reply.resultArray(), 0, 1));
            mode.set(1);
            assertEquals(CallStatus.NOT_SERIALIZABLE, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 0, reply));
            assertTrue(reply.detail().contains("trailing bytes"), reply.detail());
            mode.set(2);
            assertEquals(CallStatus.NOT_SERIALIZABLE, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 0, reply));
            assertTrue(actor.exitReason().isEmpty());
        }
    }

    @Test
    void aResultPastTheGatesLimitIsOutOfMemoryAndAThrowingHandlerHaltsItsActor() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef actor = runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> {
                if (in.readBoolean()) {
                    out.writeText("x".repeat(100));
                } else {
                    throw new IllegalStateException("broken");
                }
            }, CallGate.DEFAULT_MAX_PENDING, 64);
            CallReply reply = new CallReply();
            MemorySegment yes = segment(true);
            assertEquals(CallStatus.OUT_OF_MEMORY, gate.callOnLaneEncoded(lane, yes, 0, 1, 0, reply));
            assertTrue(reply.detail().contains("longer than its limit of 64 bytes (CborOut.limit: for a gate's handler, the gate's"
                    + " maxResultBytes)"), reply.detail());
            assertFalse(reply.detail().contains("caller's"), "the limit that applied is the gate's, not a buffer: " + reply.detail());
            assertTrue(actor.exitReason().isEmpty());
            MemorySegment no = segment(false);
            assertEquals(CallStatus.CALLBACK_FAILED, gate.callOnLaneEncoded(lane, no, 0, 1, 0, reply));
            assertEquals("the handler threw java.lang.IllegalStateException", reply.detail());
            assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
            assertEquals(CallStatus.ACTOR_TERMINATED, gate.callOnLaneEncoded(lane, yes, 0, 1, 0, reply));
        }
    }

    @Test
    void callsOnALaneThroughACborGateAllocateNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(mixer, MIXER);
            CallReply reply = new CallReply();
            MemorySegment args = segment(Map.of("gain", 0.25, "voice", 3L));
            callOnLane(gate, lane, args, reply, 60_000);
            long before = threads.getCurrentThreadAllocatedBytes();
            int failures = callOnLane(gate, lane, args, reply, 10_000);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, failures);
            // Under a byte a call: anything a call allocated (the smallest object is 16 bytes) would show 160,000.
            // A deoptimization that rebuilds scalar-replaced objects once may show a few dozen bytes in all.
            assertTrue(allocated < 10_000, allocated + " bytes allocated by 10,000 calls");
            assertEquals(Map.of("gain", 0.5, "voice", 3L), CODEC.decode(reply.resultArray(), 0, reply.resultLength()));
        }
    }

    @Test
    void blockingCallsThroughACborGateAllocateNothingEvenWhenEveryCallerParks() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        Thread caller = Thread.currentThread();
        // The handler answers only once the caller has parked: every call takes the slow side, registering with the
        // gate so that a close could wake it. Whether a call parks otherwise depends on timing; here it never does not.
        CborCallHandler answersAParkedCaller = (context, in, out) -> {
            while (caller.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            MIXER.handle(context, in, out);
        };
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef mixer = runtime.spawn("mixer", () -> (c, m) -> { });
            CallGate gate = CallGate.openCbor(mixer, answersAParkedCaller);
            CallReply reply = new CallReply();
            MemorySegment args = segment(Map.of("gain", 0.25, "voice", 3L));
            callBlocking(gate, args, reply, 20_000);
            long before = threads.getCurrentThreadAllocatedBytes();
            int failures = callBlocking(gate, args, reply, 10_000);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, failures);
            // Under a byte a call: anything a call or its park allocated (the smallest object is 16 bytes) would show
            // 160,000. A set of parked callers allocated a node per park (~320,000 here); the call, its letter, the
            // arguments and the result are the reply's.
            assertTrue(allocated < 10_000, allocated + " bytes allocated by 10,000 parked calls");
            assertEquals(Map.of("gain", 0.5, "voice", 3L), CODEC.decode(reply.resultArray(), 0, reply.resultLength()));
        }
    }

    private static int callOnLane(CallGate gate, ExecutionLane lane, MemorySegment args, CallReply reply, int times) {
        int failures = 0;
        for (int i = 0; i < times; i++) {
            if (gate.callOnLaneEncoded(lane, args, 0, args.byteSize(), 0, reply) != CallStatus.OK || reply.resultLength() == 0) {
                failures++;
            }
        }
        return failures;
    }

    private static int callBlocking(CallGate gate, MemorySegment args, CallReply reply, int times) {
        int failures = 0;
        for (int i = 0; i < times; i++) {
            if (gate.callEncoded(args, 0, args.byteSize(), LONG.toNanos(), reply) != CallStatus.OK) {
                failures++;
            }
        }
        return failures;
    }

    @Test
    void aReplyReusesItsCallOnlyOnceTheRuntimeIsDoneWithIt() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef actor = runtime.spawnOnLane("audio", "a", () -> (c, m) -> { });
            AtomicInteger ran = new AtomicInteger();
            CallGate gate = CallGate.openCbor(actor, (context, in, out) -> out.writeLong(ran.incrementAndGet()));
            CallReply reply = new CallReply();
            actor.tell("older work");
            // maxTurns 1: the start turn uses it up, so the call is withdrawn while still queued.
            assertEquals(CallStatus.TIMED_OUT, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 1, reply));
            // The next call must not reuse the withdrawn one, which is still in the actor's queue.
            assertEquals(CallStatus.OK, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 0, reply), reply.detail());
            assertEquals(CallStatus.OK, gate.callOnLaneEncoded(lane, MemorySegment.NULL, 0, 0, 0, reply));
            assertEquals(2, ran.get(), "the withdrawn call never ran; each later call ran once");
            assertFalse(gate.pendingCalls() > 0);
        }
    }
}
