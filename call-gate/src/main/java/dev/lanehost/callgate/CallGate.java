package dev.lanehost.callgate;

import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;

/**
 * A way to call an actor and get a result and a {@link CallStatus}, never an exception. Each call runs as
 * a turn of the actor (a call letter), so it is serialised with the actor's other letters. Arguments and
 * results cross as plain values (CBOR): the caller's arguments are copied before they are queued and the
 * result is encoded inside the turn, so neither side ever shares an object with the other.
 *
 * <p>Two entries:
 * <ul>
 *   <li>{@link #call} blocks the calling thread until the turn finishes, up to a timeout. It is refused with
 *       {@link CallStatus#WRONG_THREAD} on the thread that runs the actor's turns (it would wait on itself).</li>
 *   <li>{@link #callOnLane} is for a host callback on the actor's lane thread, outside a turn: it queues the
 *       call and drives the lane itself until the result is ready.</li>
 * </ul>
 *
 * <p>Admission: at most {@code maxPending} calls of this gate may occupy the actor (queued, running, or
 * awaiting a pending result); beyond that a call is {@link CallStatus#REFUSED} at once, for the caller to see. While a
 * call is pending the gate (and so the actor's ref) is held by it.
 */
public final class CallGate implements AutoCloseable {
    /** Immutable and thread-safe: one for every gate. */
    static final PlainCodec CODEC = new PlainCodec();

    /** Enough in-flight calls for any sane host; a runaway caller meets REFUSED instead of unbounded memory. */
    public static final int DEFAULT_MAX_PENDING = 1024;
    /**
     * A result larger than this is OUT_OF_MEMORY, for Java and C callers alike (a C caller is bounded by its buffer
     * too: the smaller bound decides).
     */
    public static final int DEFAULT_MAX_RESULT_BYTES = 16 << 20;

    private final ActorRef actor;
    /** The gate's handler: one of these two, the other null. */
    private final CallHandler handler;
    private final CborCallHandler cborHandler;
    private final int maxPending;
    private final int maxResultBytes;
    /**
     * Calls admitted (callers add) and admission slots released (whoever ends a call adds, usually the actor's
     * thread): pending calls are the difference. Two counters on lines of their own, so a call that comes and goes
     * does not move one line back and forth between the caller's core and the actor's.
     */
    private final GateCounts counts = new GateCounts();
    /**
     * Blocking callers that have stopped spinning and park: {@link #close} wakes them. A caller still spinning sees
     * the closed flag itself, and a queued call's turn checks it before running, so a call that completes while
     * its caller spins touches no list at all.
     */
    private final ParkedCallers parkedCallers = new ParkedCallers();
    private final GateMetrics metrics = new GateMetrics();
    private volatile boolean closed;
    private final CloseActions closeActions = new CloseActions();

    private CallGate(ActorRef actor, CallHandler handler, CborCallHandler cborHandler, int maxPending, int maxResultBytes) {
        this.actor = actor;
        this.handler = handler;
        this.cborHandler = cborHandler;
        this.maxPending = maxPending;
        this.maxResultBytes = maxResultBytes;
    }

    /** Opens a gate with the default admission bound and result limit. */
    public static CallGate open(ActorRef actor, CallHandler handler) {
        return open(actor, handler, DEFAULT_MAX_PENDING, DEFAULT_MAX_RESULT_BYTES);
    }

    /**
     * Opens a gate on an actor of any placement.
     *
     * @param maxPending     calls that may be queued or running at once (admission bound), at least 1
     * @param maxResultBytes the largest encoded result any caller gets, at least 1: a larger one is
     *                       {@link CallStatus#OUT_OF_MEMORY} for Java callers and for C callers through the host
     *                       ABI alike (there with {@code *result_length} 0, since no buffer would take it)
     */
    public static CallGate open(ActorRef actor, CallHandler handler, int maxPending, int maxResultBytes) {
        Objects.requireNonNull(handler, "handler");
        checkBounds(actor, maxPending, maxResultBytes);
        return new CallGate(actor, handler, null, maxPending, maxResultBytes);
    }

    /**
     * Opens a gate whose handler reads its arguments and writes its result as CBOR in place ({@link CborCallHandler}),
     * with the default admission bound and result limit: through the entries that take a {@link CallReply}, a call
     * allocates nothing. Java callers with objects may call it too (their arguments are encoded for the handler, its
     * result decoded for them).
     */
    public static CallGate openCbor(ActorRef actor, CborCallHandler handler) {
        return openCbor(actor, handler, DEFAULT_MAX_PENDING, DEFAULT_MAX_RESULT_BYTES);
    }

    /** {@link #openCbor(ActorRef, CborCallHandler)} with an admission bound and a result limit ({@link #open(ActorRef, CallHandler, int, int)}). */
    public static CallGate openCbor(ActorRef actor, CborCallHandler handler, int maxPending, int maxResultBytes) {
        Objects.requireNonNull(handler, "handler");
        checkBounds(actor, maxPending, maxResultBytes);
        return new CallGate(actor, null, handler, maxPending, maxResultBytes);
    }

    private static void checkBounds(ActorRef actor, int maxPending, int maxResultBytes) {
        Objects.requireNonNull(actor, "actor");
        if (maxPending < 1) {
            throw new IllegalArgumentException("maxPending must be at least 1, got " + maxPending);
        }
        if (maxResultBytes < 1) {
            throw new IllegalArgumentException("maxResultBytes must be at least 1, got " + maxResultBytes);
        }
    }

    public ActorRef actor() {
        return actor;
    }

    // ---------------------------------------------------------------- Java entries

    /**
     * Calls the actor and waits up to {@code timeout} for the turn to finish.
     *
     * <p>Timeouts: a call not yet started when the caller gives up is removed and never runs; a call
     * already running completes, but its result is discarded and counted ({@link #discardedResults()}).
     * {@link Duration#ZERO} does not wait: the outcome is looked at once, so the call times out at once unless the
     * actor had already finished it; there is no "unbounded" timeout. The timeout bounds the whole wait, the spin
     * before parking included. A handler returning a pending {@link java.util.concurrent.CompletionStage} is waited for
     * (its completion is a later turn of the actor, where the value is encoded).
     */
    public CallResult call(Object args, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            return counted(CallResult.failure(CallStatus.INVALID_ARGUMENT, "the timeout must be zero or positive, got " + timeout));
        }
        return answered("call", callPath("call", null, CallWaits.saturatedNanos(timeout), args, null, null, 0, 0));
    }

    /**
     * For a host callback running on the actor's lane thread, outside any turn: queues the call and drives
     * the lane synchronously until the result is ready. {@code maxTurns > 0} bounds the turns driven
     * (older lane work counts): if they run out first the call is dequeued and {@link CallStatus#TIMED_OUT}
     * returned. {@code 0} is unbounded. A handler that returns a pending result gets
     * {@link CallStatus#CALLBACK_SUSPENDED} and its actor is disrupted (halted).
     *
     * <p>It drives the lane as {@link ExecutionLane#drive} does, so on a lane no thread is bound to it binds the lane
     * to the caller, for good while the caller lives: call it from the lane's host thread only, never from a thread
     * that happens to run before the host's first drive (the host would then get {@link CallStatus#WRONG_THREAD}).
     */
    public CallResult callOnLane(ExecutionLane lane, Object args, int maxTurns) {
        if (lane == null || maxTurns < 0) {
            return counted(CallResult.failure(CallStatus.INVALID_ARGUMENT,
                    lane == null ? "no lane given" : "maxTurns must be >= 0, got " + maxTurns));
        }
        return answered("callOnLane", callPath("callOnLane", lane, maxTurns, args, null, null, 0, 0));
    }

    // ---------------------------------------------------------------- CBOR entries (the host ABI)

    /**
     * {@link #call} with CBOR arguments (RFC 8949; an empty array means none) and a CBOR result, in new arrays:
     * {@link #callEncoded(MemorySegment, long, long, long, CallReply)} without the reply. Never throws.
     *
     * @param timeoutNanos how long to wait; negative is {@link CallStatus#INVALID_ARGUMENT}
     */
    public EncodedCallResult callEncoded(byte[] cborArgs, long timeoutNanos) {
        CallReply reply = CallReply.ofThisThread();
        CallStatus status = callEncoded(CallReply.segmentOf(cborArgs), 0, cborArgs == null ? 0 : cborArgs.length, timeoutNanos, reply);
        return new EncodedCallResult(status, reply.resultBytes(), reply.detail());
    }

    /** {@link #callOnLane} with CBOR arguments and result, as {@link #callEncoded(byte[], long)}. Never throws. */
    public EncodedCallResult callOnLaneEncoded(ExecutionLane lane, byte[] cborArgs, int maxTurns) {
        CallReply reply = CallReply.ofThisThread();
        CallStatus status = callOnLaneEncoded(lane, CallReply.segmentOf(cborArgs), 0, cborArgs == null ? 0 : cborArgs.length, maxTurns, reply);
        return new EncodedCallResult(status, reply.resultBytes(), reply.detail());
    }

    /**
     * {@link #call} with the CBOR arguments in {@code args[offset, offset + length)} (length 0: none), answering into
     * {@code reply}: the status it returns, and after OK the encoded result. The arguments are copied and checked
     * whole before the call is queued: malformed CBOR is {@link CallStatus#INVALID_ARGUMENT} and never reaches the
     * actor; the region is not read after this returns. With a gate opened by {@link #openCbor} and a reply kept
     * by the calling thread, a call allocates nothing. Never throws.
     *
     * @param timeoutNanos how long to wait; negative is {@link CallStatus#INVALID_ARGUMENT}
     */
    public CallStatus callEncoded(MemorySegment args, long offset, long length, long timeoutNanos, CallReply reply) {
        if (reply == null) {
            return counted(CallStatus.INVALID_ARGUMENT);
        }
        if (timeoutNanos < 0) {
            return counted(reply.failed(CallStatus.INVALID_ARGUMENT, "the timeout must be zero or positive, got " + timeoutNanos));
        }
        return replied("callEncoded", reply, callPath("callEncoded", null, timeoutNanos, null, reply, args, offset, length));
    }

    /**
     * {@link #callOnLane} with CBOR arguments, answering into {@code reply}, as
     * {@link #callEncoded(MemorySegment, long, long, long, CallReply)}. Never throws.
     */
    public CallStatus callOnLaneEncoded(ExecutionLane lane, MemorySegment args, long offset, long length, int maxTurns,
                                        CallReply reply) {
        if (reply == null) {
            return counted(CallStatus.INVALID_ARGUMENT);
        }
        if (lane == null || maxTurns < 0) {
            return counted(reply.failed(CallStatus.INVALID_ARGUMENT,
                    lane == null ? "no lane given" : "maxTurns must be >= 0, got " + maxTurns));
        }
        return replied("callOnLaneEncoded", reply, callPath("callOnLaneEncoded", lane, maxTurns, null, reply, args, offset, length));
    }

    // ---------------------------------------------------------------- the one call path

    /**
     * Every entry's path once it has checked how long it may wait: the call made ready (a Java caller's new one, or
     * one of the reply's for a CBOR caller, {@code reply} non-null), its arguments loaded and checked before anything
     * is queued, then admitted, queued and waited for: blocking up to {@code limit} ns ({@code lane} null), or driving
     * the lane for at most {@code limit} turns (0: unbounded). Never throws: a fault is INTERNAL_ERROR.
     */
    private CallAnswer callPath(String entry, ExecutionLane lane, long limit, Object plainArgs, CallReply reply,
                                MemorySegment args, long offset, long length) {
        try {
            boolean onLane = lane != null;
            GateCall call;
            if (reply == null) {
                call = GateCall.forJava(this, plainArgs, onLane);
            } else {
                call = reply.call(this, onLane);
                String badRegion = call.loadArguments(args, offset, length, cborHandler != null);
                if (badRegion != null) {
                    return new CallOutcome(CallStatus.INVALID_ARGUMENT, badRegion);
                }
            }
            CallAnswer refused = onLane ? CallWaits.laneRefusal(actor, lane) : CallWaits.blockingRefusal(actor);
            if (refused == null) {
                refused = admit(call);
            }
            if (refused != null) {
                return refused;
            }
            return onLane ? CallWaits.driveLane(this, lane, call, (int) limit) : call.await(limit);
        } catch (PlainValueException e) {
            return new CallOutcome(CallStatus.of(e.failure()), "arguments: " + e.getMessage());
        } catch (Throwable unexpected) {
            return InternalErrors.outcome("CallGate." + entry, unexpected);
        }
    }

    /** A Java entry's answer, counted: a plain copy of an OK call's result. */
    private CallResult answered(String entry, CallAnswer answer) {
        try {
            return counted(CallResult.of(answer));
        } catch (Throwable unexpected) {
            CallOutcome failure = InternalErrors.outcome("CallGate." + entry, unexpected);
            return counted(CallResult.failure(failure.status(), failure.detail()));
        }
    }

    /** A CBOR entry's answer, recorded in its reply (an OK call's result copied out of the call) and counted. */
    private CallStatus replied(String entry, CallReply reply, CallAnswer answer) {
        try {
            return counted(reply.answer(answer));
        } catch (Throwable unexpected) {
            CallOutcome failure = InternalErrors.outcome("CallGate." + entry, unexpected);
            return counted(reply.failed(failure.status(), failure.detail()));
        }
    }

    private CallAnswer admit(GateCall call) {
        if (closed) {
            return new CallOutcome(CallStatus.CLOSED, "the gate is closed");
        }
        if (actor.isTerminated()) {
            return terminated();
        }
        if (!counts.admit(maxPending)) {
            return new CallOutcome(CallStatus.REFUSED, "actor " + actor.name() + " already has " + maxPending
                    + " calls of this gate pending (the gate's admission bound)");
        }
        switch (actor.offerTask(call)) {
            case QUEUED -> {
                call.queued();
                return null;
            }
            case FULL -> call.withdraw(CallStatus.REFUSED, "actor " + actor.name()
                    + "'s mailbox or lane holds its capacity of letters (the runtime's admission bound)"); // never queued
            case TERMINATED -> {
                CallOutcome terminated = terminated();
                call.withdraw(terminated.status(), terminated.detail()); // never queued
            }
        }
        return call.lvOutcome();
    }

    CallOutcome terminated() {
        CallStatus status = terminatedStatus();
        return new CallOutcome(status, status == CallStatus.CLOSED
                ? "the runtime is closed" : "actor " + actor.name() + " has halted");
    }

    /**
     * For an actor that refused the call as terminated: CLOSED if its runtime's close halted it, or refused it because
     * the runtime is closing (no exit reason yet: the close halts it next); ACTOR_TERMINATED otherwise.
     */
    CallStatus terminatedStatus() {
        ExitReason reason = actor.exitReason().orElse(null);
        return reason == null || reason instanceof ExitReason.Shutdown ? CallStatus.CLOSED : CallStatus.ACTOR_TERMINATED;
    }

    // ---------------------------------------------------------------- lifecycle and accounting

    /**
     * Fails every pending call with {@link CallStatus#CLOSED} (queued ones never run); later calls get CLOSED.
     * Then runs the close actions (a host ABI unexporting the gate), each once. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        // Then the parked callers (a caller registers, then looks at the flag: one of the two sees the other).
        // Spinning callers and queued turns see the flag themselves (GateCall.await, GateCall.run).
        for (CallRendezvous call : parkedCallers.snapshot()) {
            call.casWithdrawParkedClosed(this);
        }
        closeActions.runAll();
    }

    /**
     * Runs {@code action} once when the gate closes, or now if it already has (whoever exported the gate
     * drops it there, so a closed gate is not kept reachable).
     */
    public void onClose(Runnable action) {
        closeActions.add(Objects.requireNonNull(action, "action"));
        if (closed) {
            close(); // drains the actions, ours included, exactly once each
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** Calls occupying the actor now (queued, running, or awaiting their result's stage), whether or not their callers still wait. */
    public int pendingCalls() {
        return counts.pending();
    }

    /** Results of calls that finished after their caller had left (timed out or closed). */
    public long discardedResults() {
        return metrics.discarded();
    }

    /** Calls answered with this status so far (a metric). */
    public long callsWithStatus(CallStatus status) {
        return metrics.withStatus(status);
    }

    CallHandler handler() {
        return handler;
    }

    CborCallHandler cborHandler() {
        return cborHandler;
    }

    int maxResultBytes() {
        return maxResultBytes;
    }

    /** A blocking caller is about to park: {@link #close} must be able to wake it. @return false if already closed */
    boolean parking(CallRendezvous call) {
        parkedCallers.add(call);
        return !closed;
    }

    void parked(CallRendezvous call) {
        parkedCallers.remove(call);
    }

    void slotReleased() {
        counts.released();
    }

    void resultDiscarded() {
        metrics.resultDiscarded();
    }

    private CallResult counted(CallResult result) {
        metrics.answered(result.status());
        return result;
    }

    private CallStatus counted(CallStatus status) {
        metrics.answered(status);
        return status;
    }
}
