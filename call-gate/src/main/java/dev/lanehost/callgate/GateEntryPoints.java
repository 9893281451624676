package dev.lanehost.callgate;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ExecutionLane;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The call gate as C sees it: two functions, exported as FFM upcall stubs, that take opaque handles and
 * CBOR buffers and return a {@link CallStatus} code ({@code lanehost_gate_call_fn} and
 * {@code lanehost_gate_call_on_lane_fn} in {@code lanehost.h}).
 *
 * <p>No exception crosses these entries (the JVM would exit): each catches everything. A bad handle, a
 * NULL pointer with a nonzero length, a negative or oversized length, or malformed CBOR is
 * {@link CallStatus#INVALID_ARGUMENT}. Zero-length arguments mean "no arguments" (null). The arguments are
 * copied out of C memory before the call is queued, and the result is copied into the caller's buffer by
 * the calling thread after the turn, so a caller that timed out and freed its buffers is never written
 * to. A result larger than the buffer is {@link CallStatus#OUT_OF_MEMORY}, with the needed size stored in
 * {@code *result_length}.
 */
public final class GateEntryPoints {
    /** {@code int32_t (uint64_t gate, const uint8_t *args, uint64_t args_length, uint8_t *result, uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos)} */
    public static final FunctionDescriptor CALL = FunctionDescriptor.of(JAVA_INT,
            JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG);
    /** {@code int32_t (uint64_t gate, uint64_t lane, const uint8_t *args, uint64_t args_length, uint8_t *result, uint64_t result_capacity, uint64_t *result_length, int32_t max_turns)} */
    public static final FunctionDescriptor CALL_ON_LANE = FunctionDescriptor.of(JAVA_INT,
            JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT);
    /** Arguments larger than this are refused as INVALID_ARGUMENT: no plain-value call needs more. */
    public static final long MAX_ARGS_BYTES = 64L << 20;

    private static final HandleTable<CallGate> GATES = new HandleTable<>(0x47); // 'G'
    private static final HandleTable<ExecutionLane> LANES = new HandleTable<>(0x4C); // 'L'

    private GateEntryPoints() {
    }

    /** A handle C can pass to the entries for this gate. */
    public static long register(CallGate gate) {
        return GATES.register(java.util.Objects.requireNonNull(gate, "gate"));
    }

    /** Makes the handle invalid; later calls with it get INVALID_ARGUMENT. */
    public static boolean unregister(long gateHandle) {
        return GATES.unregister(gateHandle);
    }

    /** A handle C can pass to {@code callOnLane} for this lane (the holder of the handle may drive it). */
    public static long registerLane(ExecutionLane lane) {
        return LANES.register(java.util.Objects.requireNonNull(lane, "lane"));
    }

    public static boolean unregisterLane(long laneHandle) {
        return LANES.unregister(laneHandle);
    }

    /** The blocking entry as a C function pointer, valid while {@code arena} is open. */
    public static MemorySegment callStub(Arena arena) {
        return stub("call", CALL, arena);
    }

    /** The lane entry as a C function pointer, valid while {@code arena} is open. */
    public static MemorySegment callOnLaneStub(Arena arena) {
        return stub("callOnLane", CALL_ON_LANE, arena);
    }

    static int call(long gateHandle, MemorySegment args, long argsLength, MemorySegment result, long resultCapacity,
                    MemorySegment resultLength, long timeoutNanos) {
        return enter(gateHandle, args, argsLength, result, resultCapacity, resultLength,
                timeoutNanos < 0 ? null : (gate, plainArgs) -> gate.callEncodedArgs(plainArgs, timeoutNanos));
    }

    static int callOnLane(long gateHandle, long laneHandle, MemorySegment args, long argsLength, MemorySegment result,
                          long resultCapacity, MemorySegment resultLength, int maxTurns) {
        ExecutionLane lane = LANES.lookup(laneHandle);
        return enter(gateHandle, args, argsLength, result, resultCapacity, resultLength,
                lane == null || maxTurns < 0 ? null : (gate, plainArgs) -> gate.callOnLaneEncodedArgs(lane, plainArgs, maxTurns));
    }

    /** How an entry turns plain arguments into an outcome; null when its own arguments were invalid. */
    @FunctionalInterface
    private interface Entry {
        GateCall.Outcome call(CallGate gate, Object plainArgs);
    }

    /** What both entries share: handle and buffer checks, argument copy, the call, result delivery, no throw. */
    private static int enter(long gateHandle, MemorySegment args, long argsLength, MemorySegment result,
                             long resultCapacity, MemorySegment resultLength, Entry entry) {
        CallGate gate = null;
        try {
            gate = GATES.lookup(gateHandle);
            if (gate == null || entry == null) {
                return reply(gate, CallStatus.INVALID_ARGUMENT, resultLength);
            }
            CallStatus invalid = checkBuffers(args, argsLength, result, resultCapacity, resultLength);
            if (invalid != null) {
                return reply(gate, invalid, resultLength);
            }
            GateCall.Outcome outcome = entry.call(gate, readArgs(args, argsLength));
            return reply(gate, deliver(outcome, result, resultCapacity, resultLength), null);
        } catch (PlainValueException e) {
            return reply(gate, e.status(), resultLength);
        } catch (Throwable unexpected) {
            InternalErrors.report("the C gate entry", unexpected);
            return reply(gate, CallStatus.INTERNAL_ERROR, resultLength);
        }
    }

    private static CallStatus checkBuffers(MemorySegment args, long argsLength, MemorySegment result, long resultCapacity,
                                           MemorySegment resultLength) {
        if (argsLength < 0 || argsLength > MAX_ARGS_BYTES || resultCapacity < 0) {
            return CallStatus.INVALID_ARGUMENT;
        }
        if ((argsLength > 0 && isNull(args)) || (resultCapacity > 0 && isNull(result)) || isNull(resultLength)) {
            return CallStatus.INVALID_ARGUMENT;
        }
        return null;
    }

    private static Object readArgs(MemorySegment args, long argsLength) throws PlainValueException {
        if (argsLength == 0) {
            return null;
        }
        byte[] copy = args.reinterpret(argsLength).toArray(JAVA_BYTE); // ours from here on
        return CallGate.CODEC.decode(copy, 0, copy.length);
    }

    private static CallStatus deliver(GateCall.Outcome outcome, MemorySegment result, long resultCapacity,
                                      MemorySegment resultLength) {
        MemorySegment lengthOut = resultLength.reinterpret(Long.BYTES);
        if (outcome.status() != CallStatus.OK) {
            lengthOut.set(JAVA_LONG, 0, 0L);
            return outcome.status();
        }
        byte[] encoded = outcome.result();
        lengthOut.set(JAVA_LONG, 0, encoded.length);
        if (encoded.length > resultCapacity) {
            return CallStatus.OUT_OF_MEMORY; // *result_length says how much room it needs
        }
        MemorySegment.copy(encoded, 0, result.reinterpret(resultCapacity), JAVA_BYTE, 0, encoded.length);
        return CallStatus.OK;
    }

    /** Counts the status and, for a failure decided before delivery, stores 0 in a non-NULL {@code *result_length}. */
    private static int reply(CallGate gate, CallStatus status, MemorySegment resultLength) {
        if (gate != null) {
            gate.count(status);
        }
        if (status != CallStatus.OK && !isNull(resultLength)) {
            try {
                resultLength.reinterpret(Long.BYTES).set(JAVA_LONG, 0, 0L);
            } catch (Throwable ignored) {
                // an unwritable pointer: the status still reaches the caller
            }
        }
        return status.code();
    }

    private static boolean isNull(MemorySegment pointer) {
        return pointer == null || pointer.address() == 0;
    }

    private static MemorySegment stub(String method, FunctionDescriptor descriptor, Arena arena) {
        try {
            MethodType type = descriptor.toMethodType();
            var handle = MethodHandles.lookup().findStatic(GateEntryPoints.class, method, type);
            return Linker.nativeLinker().upcallStub(handle, descriptor, arena);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the gate entry " + method + " does not match its descriptor", e);
        }
    }
}
