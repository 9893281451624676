package dev.lanehost.nativeabi;

import static dev.lanehost.nativeabi.EntryAnswers.*;

import dev.lanehost.nativeabi.internal.HandleTable;
import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.DriveCounts;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Signal;
import java.util.Map;

/**
 * The bodies behind the host function table's upcall stubs, one method per member of {@code lanehost_api}.
 *
 * <p>Every method catches everything and returns a {@link CallStatus} code: an exception escaping an upcall
 * would end the JVM. A host's mistake (NULL, unknown handle, bad length, unknown name) is
 * {@code INVALID_ARGUMENT} with a last-error sentence (a handle whose object was closed or released is {@code CLOSED}
 * instead: {@link EntryAnswers#missing}); a fault of our own is {@code INTERNAL_ERROR}, logged
 * once per entry. After {@link #detach()} (the host ABI closed) every entry answers {@code CLOSED}, and the
 * stubs, which live forever, no longer reach the runtime. (The table's C trampolines stop calling most of these
 * once the host ABI closes, {@link HostTables}; the checks here answer the calls that raced that.)
 *
 * <p>Names arrive with their length: the C trampolines of the NUL-terminated lookups find the length themselves,
 * reading the name in a way that cannot fault, and the sentence of a failure lives in C ({@code last_error} is C's
 * alone), set here through {@link HostTables#setLastError}.
 */
final class HostEntries {
    private static final int OK = CallStatus.OK.code();
    private static final int DRIVE_OK = DriveStatus.OK.code();
    /** Arguments larger than this are refused: no plain-value call needs more, and a garbage length is caught. */
    static final long MAX_ARGS_BYTES = 64L << 20;
    /** Signal payloads larger than this are refused, for the same reasons. */
    static final long MAX_PAYLOAD_BYTES = 16L << 20;

    private volatile HostAbi abi;
    /**
     * The host ABI's lane handles, held here so {@code lane_drive} reaches its lane without first loading
     * {@link #abi}: the table is cleared before {@link #detach()}, so a handle found here is still exported,
     * and a miss is when to ask whether the host ABI has closed.
     */
    private final HandleTable<ExecutionLane> lanes;
    /**
     * The host's ring references, kept past {@link #detach()}: a release after close may be the one that
     * frees a ring's memory, so it must still find its reference.
     */
    private final HandleTable<HostRing> ringReferences;
    /**
     * Each host thread's answers to its gate calls, which also keep its calls from one to the next (a call allocates
     * nothing), for the tables of every runtime: one per thread, not one per table, because a table lives
     * as long as the process (its entries must still answer after a stop), and a reply per table would keep the last
     * gate each thread called through it, and so a stopped runtime, reachable for as long as the thread lives.
     */
    private static final ThreadLocal<CallReply> REPLIES = ThreadLocal.withInitial(CallReply::new);
    /** The sentence for an entry that ran out of its thread's stack (built once: there may be no room to build it). */

    HostEntries(HostAbi abi) {
        this.abi = abi;
        this.ringReferences = abi.ringReferences;
        this.lanes = abi.lanes;
    }

    /** The host ABI and its runtime have both closed: the stubs, which live forever, let go of everything. */
    void detach() {
        abi = null;
    }

    // ---------------------------------------------------------------- lanes

    int laneLookupN(long name, long nameLength, long laneOut) {
        try {
            HostAbi host = open();
            ForeignMemory.require(laneOut, Long.BYTES, "lane_out");
            return lookup(host, host.laneNames, "lane", ForeignMemory.name(name, nameLength), laneOut);
        } catch (Throwable t) {
            return failed("lane_lookup", t);
        }
    }

    int laneDrive(long laneHandle, int maxTurns, long counts) {
        try {
            HostAbi.ExportedLane exported = (HostAbi.ExportedLane) lanes.lookupEntry(laneHandle);
            if (exported == null) {
                HostAbi host = abi;
                if (host == null || host.closed) {
                    return closed();
                }
                throw missing(lanes, laneHandle);
            }
            ExecutionLane lane = exported.lane;
            if (maxTurns < 0) {
                return fail(CallStatus.INVALID_ARGUMENT, "max_turns must be >= 0, got " + maxTurns);
            }
            if (counts == 0) { // the host wants the status only: nothing to count into
                int code = lane.drive(maxTurns, null);
                return code == DRIVE_OK ? OK : fromDriveCode(lane, code);
            }
            DriveCounts out = exported.countsForCurrentThread();
            int code = lane.drive(maxTurns, out);
            if (code != DRIVE_OK) {
                return fromDriveCode(lane, code);
            }
            ForeignMemory.require(counts, HostAbiDescriptor.DRIVE_COUNTS_SIZE, "counts");
            ForeignMemory.putInt(counts + HostAbiDescriptor.DRIVE_COUNTS_TURNS_OFFSET, out.turns());
            ForeignMemory.putInt(counts + HostAbiDescriptor.DRIVE_COUNTS_RESERVED_OFFSET, 0);
            ForeignMemory.putLong(counts + HostAbiDescriptor.DRIVE_COUNTS_REMAINING_OFFSET, out.remaining());
            return OK;
        } catch (Throwable t) {
            return failed("lane_drive", t);
        }
    }

    int laneBind(long laneHandle) {
        try {
            ExecutionLane lane = laneFollowingItsRuntime(laneHandle);
            return fromDrive(lane, lane.bind());
        } catch (Throwable t) {
            return failed("lane_bind", t);
        }
    }

    int laneRelease(long laneHandle) {
        try {
            ExecutionLane lane = laneFollowingItsRuntime(laneHandle);
            DriveStatus released = lane.release();
            return released == DriveStatus.WRONG_THREAD ? wrongThread(lane, true) : fromDrive(lane, released);
        } catch (Throwable t) {
            return failed("lane_release", t);
        }
    }

    int threadWarmUp() {
        try {
            open().runtime().warmUpThread();
            return OK;
        } catch (Throwable t) {
            return failed("thread_warm_up", t);
        }
    }

    // ---------------------------------------------------------------- gates

    int gateLookupN(long name, long nameLength, long gateOut) {
        try {
            HostAbi host = open();
            ForeignMemory.require(gateOut, Long.BYTES, "gate_out");
            return lookup(host, host.gateNames, "gate", ForeignMemory.name(name, nameLength), gateOut);
        } catch (Throwable t) {
            return failed("gate_lookup", t);
        }
    }

    int gateCall(long gateHandle, long args, long argsLength, long result, long resultCapacity, long resultLength,
                 long timeoutNanos) {
        try {
            clearLength(resultLength);
            HostAbi host = open();
            CallGate gate = gate(host, gateHandle);
            checkBuffers(args, argsLength, result, resultCapacity, resultLength);
            if (timeoutNanos < 0) {
                throw new ForeignMemory.InvalidArgument("timeout_nanos must be >= 0, got " + timeoutNanos);
            }
            CallReply reply = REPLIES.get();
            return deliver(gate.callEncoded(ForeignMemory.everything(), args, argsLength, timeoutNanos, reply), reply,
                    result, resultCapacity, resultLength);
        } catch (Throwable t) {
            return failed("gate_call", t);
        }
    }

    int gateCallOnLane(long gateHandle, long laneHandle, long args, long argsLength, long result, long resultCapacity,
                       long resultLength, int maxTurns) {
        try {
            clearLength(resultLength);
            HostAbi host = open();
            CallGate gate = gate(host, gateHandle);
            ExecutionLane lane = lane(host, laneHandle);
            checkBuffers(args, argsLength, result, resultCapacity, resultLength);
            if (maxTurns < 0) {
                throw new ForeignMemory.InvalidArgument("max_turns must be >= 0, got " + maxTurns);
            }
            CallReply reply = REPLIES.get();
            return deliver(gate.callOnLaneEncoded(lane, ForeignMemory.everything(), args, argsLength, maxTurns, reply), reply,
                    result, resultCapacity, resultLength);
        } catch (Throwable t) {
            return failed("gate_call_on_lane", t);
        }
    }

    // ---------------------------------------------------------------- signals

    int signalLookupN(long name, long nameLength, long signalOut) {
        try {
            HostAbi host = open();
            ForeignMemory.require(signalOut, Long.BYTES, "signal_out");
            return lookup(host, host.signalNames, "signal", ForeignMemory.name(name, nameLength), signalOut);
        } catch (Throwable t) {
            return failed("signal_lookup", t);
        }
    }

    int signalFire(long signalHandle, long payload, long payloadLength) {
        try {
            HostAbi host = open();
            Signal signal = host.signals.lookup(signalHandle);
            if (signal == null) {
                throw isClosed(host) ? new Closed() : missing(host.signals, signalHandle); // a close since open(): CLOSED
            }
            if (payloadLength < 0 || payloadLength > MAX_PAYLOAD_BYTES) {
                return fail(CallStatus.INVALID_ARGUMENT, "payload_length must be 0.." + MAX_PAYLOAD_BYTES + ", got "
                        + Long.toUnsignedString(payloadLength));
            }
            if (!signal.fire(ForeignMemory.copy(payload, payloadLength))) {
                unexportSignal(host, signalHandle);
                return fail(CallStatus.CLOSED, "the signal can fire no more (a one-shot that fired, cancelled, or its actor halted)");
            }
            if (!signal.isAttached()) {
                unexportSignal(host, signalHandle); // a one-shot: this was its only firing
            }
            return OK;
        } catch (Throwable t) {
            return failed("signal_fire", t);
        }
    }

    // ---------------------------------------------------------------- rings

    int ringLookupN(long name, long nameLength, long ringOut, long memoryOut, long memoryLengthOut) {
        try {
            HostAbi host = open();
            // Every pointer is checked before a reference is taken: a refused call holds nothing.
            ForeignMemory.require(ringOut, Long.BYTES, "ring_out");
            ForeignMemory.require(memoryOut, Long.BYTES, "memory_out");
            ForeignMemory.require(memoryLengthOut, Long.BYTES, "memory_length_out");
            String ringName = ForeignMemory.name(name, nameLength);
            HostRing ring = host.rings.get(ringName);
            if (ring == null) {
                return notFound(host, "ring", ringName);
            }
            if (ring.isClosed() || !ring.retain()) {
                return fail(CallStatus.CLOSED, "the ring named '" + ringName + "' was closed by its Java owner");
            }
            long reference;
            try {
                reference = host.ringReferences.register(ring);
            } catch (HandleTable.Exhausted full) { // the host holds every reference a host ABI can
                ring.release();
                return fail(CallStatus.REFUSED, full.getMessage());
            }
            ForeignMemory.putLong(ringOut, reference);
            ForeignMemory.putLong(memoryOut, ring.memory().address());
            ForeignMemory.putLong(memoryLengthOut, ring.memory().byteSize());
            return OK;
        } catch (Throwable t) {
            return failed("ring_lookup", t);
        }
    }

    /**
     * Gives back one reference. Each lookup's reference is a value of its own, never issued again, so releasing one
     * twice is the host's mistake (INVALID_ARGUMENT) and never releases another holder's. After the close, a
     * reference the host still holds is taken back as before; any other value answers CLOSED.
     */
    int ringRelease(long reference) {
        try {
            HostRing ring = ringReferences.unregister(reference); // honoured after close too (see ringReferences)
            if (ring == null) {
                HostAbi host = abi;
                throw host == null || host.closed ? new Closed() : missing(ringReferences, reference);
            }
            ring.release();
            return OK;
        } catch (Throwable t) {
            return failed("ring_release", t);
        }
    }

    // ---------------------------------------------------------------- shared

    private HostAbi open() {
        HostAbi host = abi;
        if (isClosed(host)) {
            throw new Closed();
        }
        return host;
    }

    /** The host ABI closed (detached), or the runtime behind it closed while the host ABI was left open. */
    private static boolean isClosed(HostAbi host) {
        return host == null || host.closed || host.runtime().isClosed();
    }

    /**
     * Lanes follow their runtime, not the host ABI: until the runtime's close has finished, a lane's handle
     * reaches the lane (which answers CLOSED once the runtime closes, after running its teardown on the
     * calling thread if that is the lane's thread). So whatever order Java closes the two in, a host thread
     * that keeps calling back gets its lane's teardown.
     */
    private ExecutionLane laneFollowingItsRuntime(long handle) {
        HostAbi host = abi;
        if (host == null) {
            throw new Closed();
        }
        return lane(host, handle);
    }

    /** The exported lane; a handle not found is CLOSED once the host ABI has closed, else as {@link #missing} says. */
    private ExecutionLane lane(HostAbi host, long handle) {
        ExecutionLane lane = host.lanes.lookup(handle);
        if (lane == null) {
            if (host.closed) {
                throw new Closed();
            }
            throw missing(host.lanes, handle);
        }
        return lane;
    }

    private CallGate gate(HostAbi host, long handle) {
        CallGate gate = host.gates.lookup(handle);
        if (gate == null) {
            throw isClosed(host) ? new Closed() : missing(host.gates, handle); // a close since open(): CLOSED
        }
        return gate;
    }

    private int lookup(HostAbi host, Map<String, Long> names, String kind, String name, long out) {
        Long handle = names.get(name);
        if (handle == null) {
            return notFound(host, kind, name);
        }
        ForeignMemory.putLong(out, handle);
        return OK;
    }

    /**
     * A name not found: the host's mistake, unless the host ABI or its runtime closed after this entry's own look.
     * A close marks itself closed before it lets go of the names, so a lookup that raced it and found nothing sees
     * the mark here, and answers CLOSED as it would have a moment later.
     */
    private int notFound(HostAbi host, String kind, String name) {
        if (isClosed(host)) {
            throw new Closed();
        }
        return fail(CallStatus.INVALID_ARGUMENT, notExported(kind, name));
    }

    /**
     * Copies an OK result into the caller's buffer, or says how much room it needs. A failure's sentence names the C
     * entry a host called where the gate's names the Java one ({@code callOnLane}).
     */
    private int deliver(CallStatus status, CallReply reply, long result, long resultCapacity, long resultLength) {
        if (status != CallStatus.OK) {
            String detail = reply.detail();
            return fail(status, status == CallStatus.WRONG_THREAD ? detail.replace("callOnLane", "gate_call_on_lane") : detail);
        }
        int length = reply.resultLength();
        ForeignMemory.putLong(resultLength, length);
        if (length > resultCapacity) {
            return fail(CallStatus.OUT_OF_MEMORY, "the result is " + length + (length == 1 ? " byte" : " bytes") + "; result_capacity is " + resultCapacity);
        }
        reply.copyResult(ForeignMemory.everything(), result);
        return OK;
    }

    private void unexportSignal(HostAbi host, long handle) {
        host.signalNames.values().remove(handle);
        host.signals.unregister(handle);
    }

}
