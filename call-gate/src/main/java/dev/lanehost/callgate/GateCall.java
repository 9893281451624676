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
 *       caller (TIMED_OUT), by {@code close} (CLOSED) or by the actor's teardown (ACTOR_TERMINATED).
 *       Whoever wins wakes the caller; a turn that finishes after the caller left counts a discarded
 *       result.</li>
 *   <li>The call holds one of the gate's admission slots while it occupies the actor: until its turn (or
 *       its awaited stage) finishes, it is cancelled before starting, or the actor abandons it. A caller
 *       that times out does not free the slot of a call still running.</li>
 *   <li>The result is encoded inside the turn, right after the handler returns, so the caller gets a
 *       snapshot of the actor's values and no user code runs afterwards.</li>
 * </ol>
 */
final class GateCall implements TurnTask {
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

    /** A status, and the encoded result for OK. */
    record Outcome(CallStatus status, byte[] result, String detail) {
    }

    private final CallGate gate;
    private final Object args;
    /** callOnLane: the result must be immediate; a pending CompletionStage is a contract violation. */
    private final boolean immediate;
    @SuppressWarnings("unused")
    private volatile int state;
    private volatile Outcome outcome;
    private volatile Thread waiter;
    /** The call no longer occupies the actor (ran, was cancelled before running, or was abandoned). */
    @SuppressWarnings("unused")
    private volatile boolean slotReleased;

    GateCall(CallGate gate, Object args, boolean immediate) {
        this.gate = gate;
        this.args = args;
        this.immediate = immediate;
    }

    // ---------------------------------------------------------------- the actor's turn

    @Override
    public void run(ActorContext context) throws Exception {
        if (!STATE.compareAndSet(this, QUEUED, RUNNING)) {
            return; // the caller gave up or the gate closed before we started: never runs
        }
        Object value;
        try {
            value = gate.handler().handle(context, args);
        } catch (Throwable failure) {
            finish(new Outcome(CallStatus.CALLBACK_FAILED, null, "the handler threw " + failure));
            throw failure; // and the actor halts by the normal rules
        }
        if (value instanceof CompletionStage<?> stage) {
            CompletableFuture<?> future = stage.toCompletableFuture();
            if (!future.isDone()) {
                if (immediate) {
                    finish(new Outcome(CallStatus.CALLBACK_SUSPENDED, null,
                            "the handler returned a pending CompletionStage, which callOnLane cannot wait for"));
                    throw new CallbackSuspendedException(gate.actor().name());
                }
                awaitStage(context, future);
                return;
            }
            try {
                value = future.join();
            } catch (Throwable failure) {
                finish(new Outcome(CallStatus.CALLBACK_FAILED, null, "the handler's CompletionStage failed: " + failure));
                throw failure instanceof Exception e ? e : new RuntimeException(failure);
            }
        }
        finishWith(value);
    }

    /** The blocking entry: finish in a later turn of the actor, when the stage completes. */
    private void awaitStage(ActorContext context, CompletableFuture<?> future) {
        Park<Object[]> park = context.park((c, completion) -> {
            if (completion[1] != null) {
                Throwable failure = (Throwable) completion[1];
                finish(new Outcome(CallStatus.CALLBACK_FAILED, null, "the handler's CompletionStage failed: " + failure));
            } else {
                finishWith(completion[0]);
            }
        }, () -> finish(new Outcome(CallStatus.ACTOR_TERMINATED, null, "the actor halted before the result was ready")));
        future.whenComplete((value, failure) -> park.complete(new Object[] {value, failure}));
    }

    private void finishWith(Object value) {
        byte[] encoded;
        try {
            encoded = CallGate.CODEC.encode(value);
        } catch (PlainValueException e) {
            finish(new Outcome(e.status(), null, e.getMessage()));
            return;
        } catch (OutOfMemoryError e) {
            finish(new Outcome(CallStatus.OUT_OF_MEMORY, null, "out of memory encoding the result"));
            return;
        }
        if (encoded.length > gate.maxResultBytes()) {
            finish(new Outcome(CallStatus.OUT_OF_MEMORY, null, "the result is " + encoded.length
                    + " bytes, more than the gate's limit of " + gate.maxResultBytes()));
            return;
        }
        finish(new Outcome(CallStatus.OK, encoded, ""));
    }

    @Override
    public void abandoned() {
        releaseSlot();
        complete(new Outcome(CallStatus.ACTOR_TERMINATED, null, "the actor halted with the call still queued"));
    }

    /** The actor is done with the call: record the outcome (or count it discarded) and free the slot. */
    private void finish(Outcome result) {
        releaseSlot();
        if (!complete(result)) {
            gate.resultDiscarded(); // the caller already left (timed out, or the gate closed)
        }
    }

    /** Frees this call's admission slot, once. */
    private void releaseSlot() {
        if (SLOT_RELEASED.compareAndSet(this, false, true)) {
            gate.slotReleased();
        }
    }

    // ---------------------------------------------------------------- the caller's side

    /** Sets the outcome once and wakes the caller. @return false if an outcome was already set */
    boolean complete(Outcome result) {
        if (!OUTCOME.compareAndSet(this, (Outcome) null, result)) {
            return false;
        }
        gate.callEnded(this);
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
    void withdraw(CallStatus status, String detail) {
        cancelIfQueued();
        complete(new Outcome(status, null, detail));
    }

    Outcome outcome() {
        return outcome;
    }

    /**
     * Waits for the outcome up to {@code timeoutNanos}. On timeout a call not yet started is removed (it
     * will never run); one already running completes later and its result is discarded.
     */
    Outcome await(long timeoutNanos) {
        Outcome result = outcome;
        for (int spin = 0; result == null && spin < SPINS_BEFORE_PARK; spin++) {
            Thread.onSpinWait();
            result = outcome;
        }
        if (result != null) {
            return result;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        while ((result = outcome) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                boolean neverStarted = cancelIfQueued();
                complete(new Outcome(CallStatus.TIMED_OUT, null, neverStarted
                        ? "timed out before the call started; it was removed and will not run"
                        : "timed out while the call was running; its result will be discarded"));
                return outcome; // ours, or the result that beat us to it
            }
            LockSupport.parkNanos(this, left);
        }
        return result;
    }
}
