package dev.lanehost.callgate;

import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.TurnTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.LockSupport;

/**
 * One call in flight: the letter queued on the actor (a {@link TurnTask}) and the caller's rendezvous.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code state} goes QUEUED → RUNNING when its turn starts, or QUEUED → CANCELLED when the caller
 *       gives up or the gate closes first; a cancelled call's turn finds it cancelled and runs nothing.</li>
 *   <li>The outcome is set once, by CAS on {@code outcome}: by the turn (OK or a failure status), by the
 *       caller (TIMED_OUT), by {@code close} (CLOSED) or by the actor's teardown (ACTOR_TERMINATED, or CLOSED when the
 *       runtime's close halted it).
 *       Whoever wins wakes the caller; a turn that finishes after the caller left counts a discarded
 *       result.</li>
 *   <li>The call holds one of the gate's admission slots while it occupies the actor: until its turn (or
 *       its awaited stage) finishes, it is cancelled before starting, or the actor abandons it. A caller
 *       that times out does not free the slot of a call still running.</li>
 *   <li>The result is encoded inside the turn, right after the handler returns, so the caller gets a
 *       snapshot of the actor's values and no user code runs afterwards.</li>
 *   <li>Whatever the handler does — return, throw, return a stage whose methods throw — the turn ends
 *       through one {@code finally} that completes the call and frees its slot, unless a later turn
 *       (the stage's completion) has taken that duty over.</li>
 * </ol>
 */
final class GateCall implements TurnTask, CallAnswer {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int CANCELLED = 2;
    private static final VarHandle STATE;
    private static final VarHandle OUTCOME;
    private static final VarHandle SLOT_RELEASED;
    /** Spins before parking: a call that completes within a few microseconds never pays for a park/unpark. */
    private static final int SPINS_BEFORE_PARK = 2_000;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(GateCall.class, "state", int.class);
            OUTCOME = lookup.findVarHandle(GateCall.class, "outcome", Outcome.class);
            SLOT_RELEASED = lookup.findVarHandle(GateCall.class, "slotReleased", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A status and, for OK, the result: encoded for a CBOR caller ({@code result}), a plain copy for a Java caller
     * ({@code plain}).
     */
    record Outcome(CallStatus status, byte[] result, Object plain, String detail) implements CallAnswer {
        Outcome(CallStatus status, byte[] result, String detail) {
            this(status, result, null, detail);
        }
    }

    /**
     * The outcome word's value for OK, whose result sits in the call's own fields ({@code okResult}, {@code okPlain}):
     * a caller spinning on the word then reads one line the worker wrote, not that line and then a new outcome
     * object's. Callers see it only through {@link #resolved}.
     */
    private static final Outcome OK_IN_CALL = new Outcome(CallStatus.OK, null, "");

    private final CallGate gate;
    private final Object args;
    /** callOnLane: the result must be immediate; a pending CompletionStage is a contract violation. */
    private final boolean immediate;
    /** A CBOR caller (the host ABI): the result is encoded; a Java caller gets a plain copy, no bytes. */
    private final boolean encodedResult;
    @SuppressWarnings("unused")
    private volatile int state;
    private volatile Outcome outcome;
    /** An OK outcome's result, for {@link #OK_IN_CALL}: written by the turn before its CAS publishes the outcome. */
    private byte[] okResult;
    private Object okPlain;
    private volatile Thread waiter;
    /** The call no longer occupies the actor (ran, was cancelled before running, or was abandoned). */
    @SuppressWarnings("unused")
    private volatile boolean slotReleased;

    GateCall(CallGate gate, Object args, boolean immediate, boolean encodedResult) {
        this.gate = gate;
        this.args = args;
        this.immediate = immediate;
        this.encodedResult = encodedResult;
    }

    // ---------------------------------------------------------------- the actor's turn

    @Override
    public void run(ActorContext context) throws Exception {
        if (gate.isClosed()) {
            withdraw(CallStatus.CLOSED, "the gate was closed while the call was queued"); // a queued call never runs
            return;
        }
        if (!STATE.compareAndSet(this, QUEUED, RUNNING)) {
            return; // the caller gave up or the gate closed before we started: never runs
        }
        // Every way out of this turn passes the finally below, which completes the call unless a later
        // turn (a pending stage's completion) owns it. User code may throw from anywhere, including
        // toCompletableFuture(), isDone() and join(); none of it may leave the caller waiting.
        Outcome ending = null;
        boolean laterTurnFinishes = false;
        try {
            Object value = gate.handler().handle(context, args);
            if (value instanceof CompletionStage<?> stage) {
                CompletableFuture<?> future = stage.toCompletableFuture();
                if (!future.isDone()) {
                    if (immediate) {
                        ending = new Outcome(CallStatus.CALLBACK_SUSPENDED, null,
                                "the handler returned a pending CompletionStage, which callOnLane cannot wait for");
                        throw new CallbackSuspendedException(gate.actor().name());
                    }
                    awaitStage(context, future);
                    laterTurnFinishes = true;
                    return;
                }
                value = future.join();
            }
            ending = outcomeOf(value);
        } catch (Throwable failure) {
            if (ending == null) {
                ending = new Outcome(CallStatus.CALLBACK_FAILED, null, "the handler threw " + describe(failure));
            }
            throw failure; // and the actor halts by the normal rules
        } finally {
            if (!laterTurnFinishes) {
                finish(ending != null ? ending : new Outcome(CallStatus.CALLBACK_FAILED, null, "the handler did not return"));
            }
        }
    }

    /** The blocking entry: finish in a later turn of the actor, when the stage completes. */
    private void awaitStage(ActorContext context, CompletableFuture<?> future) {
        Park<Object[]> park = context.park((c, completion) -> {
            if (completion[1] != null) {
                finish(new Outcome(CallStatus.CALLBACK_FAILED, null,
                        "the handler's CompletionStage failed with " + describe((Throwable) completion[1])));
            } else {
                finish(outcomeOf(completion[0]));
            }
        }, () -> finish(new Outcome(gate.terminatedStatus(), null, "the actor halted before the result was ready")));
        future.whenComplete((value, failure) -> park.complete(new Object[] {value, failure}));
    }

    /** The handler's value as the caller's outcome, encoded or copied now. Never throws. */
    private Outcome outcomeOf(Object value) {
        byte[] encoded = null;
        PlainCodec.Copy copy = null;
        long length;
        try {
            if (encodedResult) {
                encoded = CallGate.CODEC.encode(value);
                length = encoded.length;
            } else {
                copy = CallGate.CODEC.copy(value);
                length = copy.encodedLength();
            }
        } catch (PlainValueException e) {
            return new Outcome(CallStatus.of(e.failure()), null, e.getMessage());
        } catch (Throwable e) { // OutOfMemoryError, StackOverflowError, or a codec bug: the caller still gets an answer
            return new Outcome(CallStatus.OUT_OF_MEMORY, null, "encoding the result failed: " + e.getClass().getName());
        }
        if (length > gate.maxResultBytes()) {
            return new Outcome(CallStatus.OUT_OF_MEMORY, null, "the result is " + length
                    + " bytes, more than the gate's limit of " + gate.maxResultBytes());
        }
        okResult = encoded;
        okPlain = copy == null ? null : copy.value();
        return OK_IN_CALL;
    }

    /**
     * A user's throwable, described without running its code: {@code toString()} and {@code getMessage()}
     * may throw, and this runs on the path that must complete the call.
     */
    static String describe(Throwable failure) {
        return failure.getClass().getName();
    }

    @Override
    public void abandoned() {
        releaseSlot();
        complete(new Outcome(gate.terminatedStatus(), null, "the actor halted with the call still queued"));
    }

    /**
     * The actor is done with the call: free the slot and record the outcome (or count it discarded).
     * Only the first finish counts: a stage's park may end after its turn already failed the call.
     */
    private void finish(Outcome result) {
        if (!releaseSlot()) {
            return;
        }
        if (!complete(result)) {
            gate.resultDiscarded(); // the caller already left (timed out, or the gate closed)
        }
    }

    /** Frees this call's admission slot, once. @return true if this call freed it */
    private boolean releaseSlot() {
        if (!SLOT_RELEASED.compareAndSet(this, false, true)) {
            return false;
        }
        gate.slotReleased();
        return true;
    }

    // ---------------------------------------------------------------- the caller's side

    /** Sets the outcome once and wakes the caller. @return false if an outcome was already set */
    boolean complete(Outcome result) {
        if (!OUTCOME.compareAndSet(this, (Outcome) null, result)) {
            return false;
        }
        Thread parked = waiter;
        if (parked != null) {
            LockSupport.unpark(parked);
        }
        return true;
    }

    /** Cancels the call if its turn has not started; it will then never run (and frees its slot). */
    boolean cancelIfQueued() {
        if (!STATE.compareAndSet(this, QUEUED, CANCELLED)) {
            return false;
        }
        releaseSlot();
        return true;
    }

    /**
     * The caller's side ends the call with a failure: a call not yet started is dequeued (it will never
     * run); a running one finishes later and its result is discarded.
     */
    /** The gate closed while this call was pending: CLOSED for the caller, and never run if still queued. */
    void withdrawClosed() {
        withdraw(CallStatus.CLOSED, "the gate was closed while the call was pending");
    }

    void withdraw(CallStatus status, String detail) {
        cancelIfQueued();
        complete(new Outcome(status, null, detail));
    }

    /** The answer once the call has one, else null. */
    CallAnswer outcome() {
        return resolved(outcome);
    }

    /** Whether the call has its answer. */
    boolean answered() {
        return outcome != null;
    }

    /** The outcome as its callers see it (null while pending): an OK call answers with its own fields. */
    private CallAnswer resolved(Outcome word) {
        return word == OK_IN_CALL ? this : word;
    }

    // The call as its own answer: handed out only once its outcome word holds OK_IN_CALL, whose CAS published these.

    @Override
    public CallStatus status() {
        return CallStatus.OK;
    }

    @Override
    public byte[] result() {
        return okResult;
    }

    @Override
    public Object plain() {
        return okPlain;
    }

    @Override
    public String detail() {
        return "";
    }

    /**
     * Waits for the outcome up to {@code timeoutNanos}. On timeout a call not yet started is removed (it
     * will never run); one already running completes later and its result is discarded.
     */
    CallAnswer await(long timeoutNanos) {
        Outcome result = outcome;
        for (int spin = 0; result == null && spin < SPINS_BEFORE_PARK; spin++) {
            Thread.onSpinWait();
            result = outcome;
            if (result == null && gate.isClosed()) {
                withdrawClosed();
                return outcome(); // ours, or the result that beat us to it
            }
        }
        if (result != null) {
            return resolved(result);
        }
        try {
            return awaitParked(timeoutNanos);
        } finally {
            gate.parked(this);
        }
    }

    /** Past the spin: registered with the gate, so its close can wake us, then parked until the outcome or the deadline. */
    private CallAnswer awaitParked(long timeoutNanos) {
        if (!gate.parking(this)) {
            withdrawClosed();
            return outcome();
        }
        Outcome result;
        long deadline = System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        while ((result = outcome) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                boolean neverStarted = cancelIfQueued();
                complete(new Outcome(CallStatus.TIMED_OUT, null, neverStarted
                        ? "timed out before the call started; it was removed and will not run"
                        : "timed out while the call was running; its result will be discarded"));
                return outcome(); // ours, or the result that beat us to it
            }
            LockSupport.parkNanos(this, left);
        }
        return resolved(result);
    }
}
