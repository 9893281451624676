package dev.lanehost.callgate;

import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.DriveCounts;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Placement;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A way to call an actor and get a result and a {@link CallStatus}, never an exception. Each call runs as
 * a turn of the actor (a call letter), so it is serialised with the actor's other letters. Arguments and
 * results cross as plain values (CBOR): the caller's arguments are copied before they are queued and the
 * result is encoded inside the turn, so neither side ever shares an object with the other.
 *
 * <p>Two entries:
 * <ul>
 *   <li>{@link #call} blocks the calling thread until the turn finishes, up to a timeout. It is refused
 *       with {@link CallStatus#WRONG_THREAD} on the thread that runs the actor's turns (it would wait on
 *       itself).</li>
 *   <li>{@link #callOnLane} is for a host callback on the actor's lane thread, outside a turn: it queues the
 *       call and drives the lane itself until the result is ready.</li>
 * </ul>
 *
 * <p>Admission: at most {@code maxPending} calls of this gate may occupy the actor (queued, running, or
 * awaiting a pending result); beyond that a call is {@link CallStatus#REFUSED} at once, for the caller to
 * see. While a call is pending
 * the gate (and so the actor's ref) is held by it.
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
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong[] byStatus = new AtomicLong[CallStatus.values().length];
    private volatile boolean closed;
    private final Queue<Runnable> closeActions = new ConcurrentLinkedQueue<>();

    private CallGate(ActorRef actor, CallHandler handler, CborCallHandler cborHandler, int maxPending, int maxResultBytes) {
        this.actor = actor;
        this.handler = handler;
        this.cborHandler = cborHandler;
        this.maxPending = maxPending;
        this.maxResultBytes = maxResultBytes;
        for (int i = 0; i < byStatus.length; i++) {
            byStatus[i] = new AtomicLong();
        }
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
     * {@link Duration#ZERO} does not wait: the outcome is looked at once, so the call times out at once unless
     * the actor had already finished it; there is no "unbounded" timeout. The timeout bounds the whole wait,
     * the spin before parking included.
     * A handler returning a pending {@link java.util.concurrent.CompletionStage} is waited for (its
     * completion is a later turn of the actor, where the value is encoded).
     */
    public CallResult call(Object args, Duration timeout) {
        try {
            if (timeout == null || timeout.isNegative()) {
                return counted(CallResult.failure(CallStatus.INVALID_ARGUMENT, "the timeout must be zero or positive, got " + timeout));
            }
            GateCall call;
            try {
                call = javaCall(args, false);
            } catch (PlainValueException e) {
                return counted(CallResult.failure(CallStatus.of(e.failure()), "arguments: " + e.getMessage()));
            }
            return counted(toResult(callBlocking(call, saturatedNanos(timeout))));
        } catch (Throwable unexpected) {
            return counted(internalError("call", unexpected));
        }
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
        try {
            if (lane == null || maxTurns < 0) {
                return counted(CallResult.failure(CallStatus.INVALID_ARGUMENT,
                        lane == null ? "no lane given" : "maxTurns must be >= 0, got " + maxTurns));
            }
            GateCall call;
            try {
                call = javaCall(args, true);
            } catch (PlainValueException e) {
                return counted(CallResult.failure(CallStatus.of(e.failure()), "arguments: " + e.getMessage()));
            }
            return counted(toResult(callOnLane(lane, call, maxTurns)));
        } catch (Throwable unexpected) {
            return counted(internalError("callOnLane", unexpected));
        }
    }

    // ---------------------------------------------------------------- CBOR entries (the host ABI)

    /**
     * {@link #call} with CBOR arguments (RFC 8949; an empty array means none) and a CBOR result, in new arrays:
     * {@link #callEncoded(MemorySegment, long, long, long, CallReply)} without the reply. Never throws.
     *
     * @param timeoutNanos how long to wait; negative is {@link CallStatus#INVALID_ARGUMENT}
     */
    public EncodedCallResult callEncoded(byte[] cborArgs, long timeoutNanos) {
        CallReply reply = REPLIES.get();
        CallStatus status = callEncoded(segmentOf(cborArgs), 0, cborArgs == null ? 0 : cborArgs.length, timeoutNanos, reply);
        return new EncodedCallResult(status, reply.resultBytes(), reply.detail());
    }

    /** {@link #callOnLane} with CBOR arguments and result, as {@link #callEncoded(byte[], long)}. Never throws. */
    public EncodedCallResult callOnLaneEncoded(ExecutionLane lane, byte[] cborArgs, int maxTurns) {
        CallReply reply = REPLIES.get();
        CallStatus status = callOnLaneEncoded(lane, segmentOf(cborArgs), 0, cborArgs == null ? 0 : cborArgs.length, maxTurns, reply);
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
            count(CallStatus.INVALID_ARGUMENT);
            return CallStatus.INVALID_ARGUMENT;
        }
        try {
            if (timeoutNanos < 0) {
                return counted(reply.failed(CallStatus.INVALID_ARGUMENT, "the timeout must be zero or positive, got " + timeoutNanos));
            }
            GateCall call = reply.call(this, false);
            String badRegion = loadArguments(call, args, offset, length);
            if (badRegion != null) {
                return counted(reply.failed(CallStatus.INVALID_ARGUMENT, badRegion));
            }
            return counted(reply.answer(callBlocking(call, timeoutNanos)));
        } catch (PlainValueException e) {
            return counted(reply.failed(CallStatus.of(e.failure()), "arguments: " + e.getMessage()));
        } catch (Throwable unexpected) {
            CallResult failure = internalError("callEncoded", unexpected);
            return counted(reply.failed(failure.status(), failure.detail()));
        }
    }

    /**
     * {@link #callOnLane} with CBOR arguments, answering into {@code reply}, as
     * {@link #callEncoded(MemorySegment, long, long, long, CallReply)}. Never throws.
     */
    public CallStatus callOnLaneEncoded(ExecutionLane lane, MemorySegment args, long offset, long length, int maxTurns,
                                        CallReply reply) {
        if (reply == null) {
            count(CallStatus.INVALID_ARGUMENT);
            return CallStatus.INVALID_ARGUMENT;
        }
        try {
            if (lane == null || maxTurns < 0) {
                return counted(reply.failed(CallStatus.INVALID_ARGUMENT,
                        lane == null ? "no lane given" : "maxTurns must be >= 0, got " + maxTurns));
            }
            GateCall call = reply.call(this, true);
            String badRegion = loadArguments(call, args, offset, length);
            if (badRegion != null) {
                return counted(reply.failed(CallStatus.INVALID_ARGUMENT, badRegion));
            }
            return counted(reply.answer(callOnLane(lane, call, maxTurns)));
        } catch (PlainValueException e) {
            return counted(reply.failed(CallStatus.of(e.failure()), "arguments: " + e.getMessage()));
        } catch (Throwable unexpected) {
            CallResult failure = internalError("callOnLaneEncoded", unexpected);
            return counted(reply.failed(failure.status(), failure.detail()));
        }
    }

    /**
     * Each thread's reply for the entries that answer in new arrays: its calls and buffers are reused, and only the
     * answer's own objects are new. A handler on this thread that calls a gate inside such a call (a lane turn that a
     * {@code callOnLaneEncoded} drives) shares it safely: the reply's calls are taken only once the runtime is done
     * with them, and each entry reads its answer back before returning.
     */
    private static final ThreadLocal<CallReply> REPLIES = ThreadLocal.withInitial(CallReply::new);

    private static MemorySegment segmentOf(byte[] bytes) {
        return bytes == null ? MemorySegment.NULL : MemorySegment.ofArray(bytes);
    }

    /**
     * The caller's CBOR into the call, checked (a CBOR gate) or decoded (a plain gate) before anything is queued.
     *
     * @return null, or what is wrong with the region (nothing was loaded)
     */
    private String loadArguments(GateCall call, MemorySegment args, long offset, long length) throws PlainValueException {
        if (length < 0 || length > MAX_ARGUMENT_BYTES) {
            return "the arguments' length must be 0.." + MAX_ARGUMENT_BYTES + ", got " + length;
        }
        if (length > 0 && (args == null || offset < 0 || offset > args.byteSize() - length)) {
            return "the arguments' region [" + offset + ", +" + length + ") is not inside "
                    + (args == null ? "a null segment" : "the " + args.byteSize() + "-byte segment");
        }
        try {
            call.copyArguments(args, offset, (int) length);
        } catch (IllegalStateException | WrongThreadException e) { // its arena closed, or it is confined elsewhere
            return "the arguments' segment cannot be read here: " + e.getMessage();
        }
        if (cborHandler != null) {
            call.validateArguments();
        } else {
            call.decodeArguments();
        }
        return null;
    }

    /** The most argument bytes a call takes: a Java array's bound. */
    private static final long MAX_ARGUMENT_BYTES = Integer.MAX_VALUE - 8;

    // ---------------------------------------------------------------- shared by the Java and CBOR entries

    /**
     * A Java caller's call: a plain copy of its arguments for a plain handler, their encoding for a CBOR handler (one
     * walk either way: both accept and refuse the same values).
     */
    private GateCall javaCall(Object args, boolean immediate) throws PlainValueException {
        if (cborHandler == null) {
            return new GateCall(this, copyOf(args), immediate);
        }
        GateCall call = new GateCall(this, null, immediate);
        call.encodeArguments(args);
        return call;
    }

    /** Queues a call whose arguments are loaded and waits for it. */
    private CallAnswer callBlocking(GateCall call, long timeoutNanos) {
        if (actor.isPlacementThread() && actor.exitReason().isEmpty()) { // a halted actor's call answers that instead
            return new GateCall.Outcome(CallStatus.WRONG_THREAD, "the blocking call entry was used on " + runnerOf(actor)
                    + ": it could wait on itself (a host callback on a lane thread uses callOnLane; a turn sends a message"
                    + " naming whom to answer)");
        }
        CallAnswer refused = admit(call);
        if (refused != null) {
            return refused;
        }
        return call.await(timeoutNanos);
    }

    /** Which thread of {@code actor}'s runners the caller is, for a WRONG_THREAD sentence. */
    private static String runnerOf(ActorRef actor) {
        String named = "actor " + actor.name() + "'s";
        return switch (actor.placement()) {
            case Placement.Lane lane -> "lane '" + lane.name() + "''s bound thread, which runs " + named + " turns";
            case Placement.Pinned pinned -> "worker " + pinned.worker() + ", which runs " + named + " turns (it is pinned there)";
            case Placement.Placed placed -> "the thread of placement entry '" + placed.entry() + "', which runs " + named + " turns";
            case Placement.Blocking blocking -> "a blocking thread, and " + named + " turns need a free one (with every blocking"
                    + " thread waiting on calls, none would be left to run them)";
            default -> "a thread that may run " + named + " turns (any HOSTED worker may run a normal actor; in SINGLE_THREAD and"
                    + " SIMULATED, the thread inside drain() or runUntilIdle())";
        };
    }

    private CallAnswer callOnLane(ExecutionLane lane, GateCall call, int maxTurns) {
        if (!(actor.placement() instanceof Placement.Lane onLane) || !onLane.name().equals(lane.name())) {
            return new GateCall.Outcome(CallStatus.INVALID_ARGUMENT, "actor " + actor.name() + " is placed "
                    + actor.placement() + ", not on lane " + lane.name());
        }
        // Binding first: a lane whose host restarted its callback thread follows it here, as a drive would.
        switch (lane.bind()) {
            case OK -> { }
            case CLOSED -> {
                return new GateCall.Outcome(CallStatus.CLOSED, "the runtime is closed");
            }
            case REENTRANT -> {
                return new GateCall.Outcome(CallStatus.WRONG_THREAD, "callOnLane was used inside a turn of lane "
                        + lane.name() + "; it is for host callbacks outside turns");
            }
            default -> {
                Thread bound = lane.boundThread();
                return new GateCall.Outcome(CallStatus.WRONG_THREAD, "callOnLane must run on lane " + lane.name()
                        + "'s thread (" + (bound == null ? "none" : bound.getName()) + ")");
            }
        }
        CallAnswer refused = admit(call);
        if (refused != null) {
            return refused;
        }
        DriveCounts counts = DRIVE_COUNTS.get();
        int turns = 0;
        int idleDrives = 0;
        while (!call.answered()) {
            if (closed) {
                call.withdrawClosed();
                break;
            }
            if (maxTurns > 0 && turns >= maxTurns) {
                call.withdraw(CallStatus.TIMED_OUT, "older work on lane " + lane.name() + " used up the " + maxTurns + "-turn bound");
                break;
            }
            int code = lane.drive(1, counts);
            DriveStatus driven = DriveStatus.ofCode(code);
            switch (driven) {
                case OK -> { }
                case REENTRANT -> call.withdraw(CallStatus.WRONG_THREAD, "callOnLane was used inside a turn of lane "
                        + lane.name() + "; it is for host callbacks outside turns");
                case CLOSED -> call.withdraw(CallStatus.CLOSED, "the runtime is closed");
                default -> call.withdraw(CallStatus.WRONG_THREAD, "lane " + lane.name() + " refused the drive: " + driven);
            }
            int ran = counts.turns();
            turns += ran;
            if (ran == 0 && ++idleDrives > MAX_IDLE_DRIVES) {
                // Nothing ran and our call did not finish: a sender was mid-queue, or the lane lost the actor.
                call.withdraw(CallStatus.TIMED_OUT, "lane " + lane.name()
                        + " had nothing runnable while the call was pending");
            } else if (ran > 0) {
                idleDrives = 0;
            }
        }
        return call.outcome();
    }

    /** Drives that run nothing while our call is queued can only be a sender caught mid-offer; this many is plenty. */
    private static final int MAX_IDLE_DRIVES = 10_000;
    /** Each lane thread's counts for the drives of its calls: {@code drive(int)} would allocate a result per drive. */
    private static final ThreadLocal<DriveCounts> DRIVE_COUNTS = ThreadLocal.withInitial(DriveCounts::new);

    private CallAnswer admit(GateCall call) {
        if (closed) {
            return new GateCall.Outcome(CallStatus.CLOSED, "the gate is closed");
        }
        if (actor.isTerminated()) {
            return terminated();
        }
        if (!counts.admit(maxPending)) {
            return new GateCall.Outcome(CallStatus.REFUSED, "actor " + actor.name() + " already has " + maxPending
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
                GateCall.Outcome terminated = terminated();
                call.withdraw(terminated.status(), terminated.detail()); // never queued
            }
        }
        return call.outcome();
    }

    /** Whether the gate's actor has halted (its teardown may not have run yet). Any thread. */
    boolean actorHalted() {
        return actor.isTerminated();
    }

    GateCall.Outcome terminated() {
        CallStatus status = terminatedStatus();
        return new GateCall.Outcome(status, status == CallStatus.CLOSED
                ? "the runtime is closed" : "actor " + actor.name() + " has halted");
    }

    /** For a halted actor: CLOSED if its runtime's close halted it, ACTOR_TERMINATED otherwise. */
    CallStatus terminatedStatus() {
        return actor.exitReason().orElse(null) instanceof ExitReason.Shutdown ? CallStatus.CLOSED : CallStatus.ACTOR_TERMINATED;
    }

    /** A fault of lanehost's own inside a Java entry: the caller gets INTERNAL_ERROR, the log the first one. */
    private CallResult internalError(String entry, Throwable unexpected) {
        InternalErrors.report("CallGate." + entry, unexpected);
        return CallResult.failure(CallStatus.INTERNAL_ERROR, "internal error in CallGate." + entry + ": "
                + unexpected.getClass().getName() + " (logged)");
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
        for (GateCall call : parkedCallers.snapshot()) {
            call.withdrawParkedClosed(this);
        }
        Runnable action;
        while ((action = closeActions.poll()) != null) {
            try {
                action.run();
            } catch (Throwable failure) {
                InternalErrors.report("CallGate.close action", failure);
            }
        }
    }

    /**
     * Runs {@code action} once when the gate closes, or now if it already has (whoever exported the gate
     * drops it there, so a closed gate is not kept reachable).
     */
    public void onClose(Runnable action) {
        Objects.requireNonNull(action, "action");
        closeActions.add(action);
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
        return discarded.get();
    }

    /** Calls answered with this status so far (a metric). */
    public long callsWithStatus(CallStatus status) {
        return byStatus[status.ordinal()].get();
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
    boolean parking(GateCall call) {
        parkedCallers.add(call);
        return !closed;
    }

    void parked(GateCall call) {
        parkedCallers.remove(call);
    }

    void slotReleased() {
        counts.released();
    }

    void resultDiscarded() {
        discarded.incrementAndGet();
    }

    void count(CallStatus status) {
        byStatus[status.ordinal()].incrementAndGet();
    }

    private CallResult counted(CallResult result) {
        count(result.status());
        return result;
    }

    private CallStatus counted(CallStatus status) {
        count(status);
        return status;
    }

    private static CallResult toResult(CallAnswer outcome) {
        if (outcome.status() != CallStatus.OK) {
            return CallResult.failure(outcome.status(), outcome.detail());
        }
        return new CallResult(CallStatus.OK, outcome.plain(), "");
    }

    /** A plain copy of a Java caller's arguments: validated and never shared with the actor. */
    private static Object copyOf(Object args) throws PlainValueException {
        return CODEC.copy(args).value();
    }

    private static long saturatedNanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
