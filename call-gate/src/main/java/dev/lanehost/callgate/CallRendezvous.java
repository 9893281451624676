package dev.lanehost.callgate;

import dev.lanehost.lanes.ReusableTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * What a call's caller and its turn race on: the state word, the outcome word, the caller's park and its wake. The
 * call's arguments and its result ({@link CallPayload}) and the turn that makes the one into the other ({@link GateCall})
 * are its subclasses': this class never reads them, and they never decide who wins a race.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code state} goes QUEUED → RUNNING when its turn starts ({@link #casRunning}), or QUEUED → CANCELLED when the
 *       caller gives up or the gate closes first ({@link #casCancelIfQueued}); a cancelled call's turn finds it
 *       cancelled and runs nothing.</li>
 *   <li>The outcome is set once, by CAS on {@code outcome} ({@link #casComplete}): by the turn (OK or a failure
 *       status), by the caller (TIMED_OUT), by {@code close} (CLOSED) or by the actor's teardown (ACTOR_TERMINATED, or
 *       CLOSED when the runtime's close halted it). Whoever wins wakes the caller; a turn that finishes after the caller
 *       left counts a discarded result.</li>
 *   <li>The call holds one of the gate's admission slots while it occupies the actor: until its turn (or its awaited
 *       stage) finishes, it is cancelled before starting, or the actor abandons it. Where more than one party may free
 *       it, the first CAS of {@code slotReleased} does ({@link #casReleaseSlot}). A caller that times out does not free
 *       the slot of a call still running.</li>
 *   <li>The caller spins on the outcome word, then registers with the gate (so its close can wake it) and parks until
 *       the outcome or its deadline; {@link #casComplete} unparks it.</li>
 *   <li>Reuse (a {@link CallReply}'s calls only: a Java caller's call is used once and never marks {@code done}): the
 *       turn (or the teardown that abandons the call) sets {@code done} as the last thing it does with the call
 *       ({@link #soDone}), after the call left the queue and (unless a stage's later turn finishes it) freed its slot.
 *       A call is reused only when it was never queued, or when it is done and never waited for a stage (a park's
 *       hooks keep such a call), and when no closing gate claimed it while its caller was parked (the caller leaving
 *       the park and the close each try to move the park word, which carries the use's generation: only the first
 *       acts, so a close never withdraws a use its caller has left). Between one use and the next its caller has read
 *       the answer, so nothing else refers to it.</li>
 * </ol>
 */
abstract sealed class CallRendezvous extends ReusableTask permits CallPayload {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int CANCELLED = 2;
    private static final int NOT_PARKED = 0;
    private static final int PARKED = 1;
    private static final int LEFT = 2;
    private static final int CLOSING = 3;
    private static final int PARK_STATE = 3;
    private static final int GENERATION_SHIFT = 2;
    /** Spins before parking: a call that completes within a few microseconds never pays for a park/unpark. */
    private static final int SPINS_BEFORE_PARK = 2_000;
    /**
     * How often a parked caller looks whether the actor has halted with its call still queued. Such a call is answered
     * by the actor's teardown, which waits for a turn still running to return and, for a lane actor, for its host's
     * next drive: neither may ever come. A halted actor runs no more turns, so the caller withdraws the call itself.
     */
    private static final long HALTED_LOOK_NANOS = 20_000_000L;
    /** The spin looks at its deadline every 64 spins (a few microseconds). */
    private static final int DEADLINE_SPINS_MASK = 63;
    private static final VarHandle STATE;
    private static final VarHandle OUTCOME;
    private static final VarHandle SLOT_RELEASED;
    private static final VarHandle DONE;
    private static final VarHandle WAITER;
    private static final VarHandle PARK_WORD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(CallRendezvous.class, "state", int.class);
            OUTCOME = lookup.findVarHandle(CallRendezvous.class, "outcome", CallOutcome.class);
            SLOT_RELEASED = lookup.findVarHandle(CallRendezvous.class, "slotReleased", boolean.class);
            DONE = lookup.findVarHandle(CallRendezvous.class, "done", boolean.class);
            WAITER = lookup.findVarHandle(CallRendezvous.class, "waiter", Thread.class);
            PARK_WORD = lookup.findVarHandle(CallRendezvous.class, "parkWord", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The outcome word's value for OK, whose result sits in the call's own fields: a caller spinning on the word then
     * reads one object the worker wrote, not it and then a new outcome object. Callers see it only through
     * {@link #resolved}, as the call itself.
     */
    static final CallOutcome OK_IN_CALL = new CallOutcome(CallStatus.OK, "");

    /**
     * Tests only: run by a spinning caller every 64 spins, on its own thread (null otherwise). A test makes a call
     * complete inside the spin window with it, which a timeout of 0 must never wait for.
     */
    static Consumer<GateCall> spinObserver;

    /** The gate of this use: its closed flag, its parked callers, its slots. */
    CallGate gate;
    /**
     * A {@link CallReply}'s call, used again and again: only such a call needs {@code done}. A Java caller's call is
     * used once, and skipping the write keeps the turn off the line its caller reads the answer from.
     */
    private final boolean kept;
    /** The offer queued it: it is the runtime's until {@code done} (a {@link CallReply}'s call), or for good (a Java caller's). */
    private boolean queuedOnce;
    /** It waited for a stage: a park's hooks refer to it, so it is never reused. Written by the turn. */
    boolean awaitedStage;
    /**
     * A closing gate claimed it while its caller was parked: the close may withdraw it at any moment, so it is never
     * reused (a close must not withdraw the next call, maybe to another gate).
     */
    private boolean claimedByClose;
    /**
     * The use's generation (high bits) and its park state (low two bits): {@link #NOT_PARKED}, {@link #PARKED},
     * {@link #LEFT} (the caller left the park), {@link #CLOSING} (a close claimed it). The generation keeps a close
     * that read the word of one use from claiming a later use that parked again (jcstress {@code GateReplyReuseTest}
     * caught that: a close of gate A withdrew the caller's next call, to gate B).
     */
    @SuppressWarnings("unused")
    private volatile int parkWord;
    /** Uses of this call so far: the park word's high bits. Its caller's thread. */
    private int generation;
    /** Links in the gate's {@link ParkedCallers} while the caller is parked; guarded by that list's lock. */
    CallRendezvous parkedPrev;
    CallRendezvous parkedNext;
    boolean parkedListed;
    @SuppressWarnings("unused")
    private volatile int state;
    private volatile CallOutcome outcome;
    private volatile Thread waiter;
    /**
     * Frees the call's slot once where more than one party may try: a cancel before the start, the teardown that
     * abandons it, a stage's hooks and the turn that waited for the stage. A turn that answers alone frees the slot
     * without it ({@code GateCall.finishAlone}), and it stays false.
     */
    @SuppressWarnings("unused")
    private volatile boolean slotReleased;
    /** A {@link CallReply}'s call: the turn or the teardown is done with it, the last write either makes. */
    @SuppressWarnings("unused")
    private volatile boolean done;

    CallRendezvous(CallGate gate, boolean kept) {
        this.gate = gate;
        this.kept = kept;
    }

    /** Ready for the next use. Plain stores: the mailbox offer's release publishes them to the actor's thread. */
    final void spRendezvous(CallGate gate) {
        this.gate = gate;
        this.queuedOnce = false;
        this.awaitedStage = false;
        this.claimedByClose = false;
        PARK_WORD.set(this, ++generation << GENERATION_SHIFT | NOT_PARKED);
        STATE.set(this, QUEUED);
        OUTCOME.set(this, (CallOutcome) null);
        WAITER.set(this, (Thread) null);
        SLOT_RELEASED.set(this, false);
        DONE.set(this, false);
    }

    /** A kept call its runtime is done with: drops the gate and the outcome until the next use. */
    final void spForgotten() {
        this.gate = null;
        OUTCOME.set(this, (CallOutcome) null);
    }

    /** Whether the runtime is done with this call and its caller may make it the next one. Its caller's thread. */
    final boolean reusable() {
        // Done is the last write of the turn or the abandonment: the call left the queue before it, and freed its slot
        // unless a stage's later turn finishes it.
        return !claimedByClose && (!queuedOnce || (boolean) DONE.getVolatile(this) && !awaitedStage);
    }

    final void queued() {
        queuedOnce = true;
    }

    /** What an OK outcome answers: the call itself, its result in its payload. */
    abstract CallAnswer okAnswer();

    // ---------------------------------------------------------------- the turn's side

    /** The turn starts it, unless the caller or a close cancelled it first. */
    final boolean casRunning() {
        return STATE.compareAndSet(this, QUEUED, RUNNING);
    }

    /** The last write of the turn or the teardown that abandons the call, for a {@link CallReply}'s call to be reused. */
    final void soDone() {
        if (kept) {
            DONE.setRelease(this, true);
        }
    }

    /** Frees this call's admission slot, once. @return true if this call freed it */
    final boolean casReleaseSlot() {
        if (!SLOT_RELEASED.compareAndSet(this, false, true)) {
            return false;
        }
        gate.slotReleased();
        return true;
    }

    /** Sets the outcome once and wakes the caller. @return false if an outcome was already set */
    final boolean casComplete(CallOutcome result) {
        if (!OUTCOME.compareAndSet(this, (CallOutcome) null, result)) {
            return false;
        }
        Thread parked = waiter;
        if (parked != null) {
            LockSupport.unpark(parked);
        }
        return true;
    }

    // ---------------------------------------------------------------- the caller's side (and a closing gate's)

    /** Cancels the call if its turn has not started; it will then never run (and frees its slot). */
    final boolean casCancelIfQueued() {
        if (!STATE.compareAndSet(this, QUEUED, CANCELLED)) {
            return false;
        }
        casReleaseSlot();
        return true;
    }

    /**
     * A closing gate found this call's caller parked: withdraw it, unless the caller has left the park (it then has
     * its answer and may already be using the call for its next call).
     */
    final void casWithdrawParkedClosed(CallGate closing) {
        int word = (int) PARK_WORD.getVolatile(this);
        // The gate is read after the word: it is this use's gate or a later use's, and a later use's word differs,
        // so the CAS below fails for it.
        if ((word & PARK_STATE) != PARKED || gate != closing) {
            return;
        }
        if (PARK_WORD.compareAndSet(this, word, (word & ~PARK_STATE) | CLOSING)) {
            withdrawClosed();
        }
    }

    /** The gate closed while this call was pending: CLOSED for the caller, and never run if still queued. */
    final void withdrawClosed() {
        withdraw(CallStatus.CLOSED, "the gate was closed while the call was pending");
    }

    /**
     * The caller's side ends the call with a failure: a call not yet started is dequeued (it will never
     * run); a running one finishes later and its result is discarded.
     */
    final void withdraw(CallStatus status, String detail) {
        casCancelIfQueued();
        casComplete(new CallOutcome(status, detail));
    }

    /** The answer once the call has one, else null. */
    final CallAnswer lvOutcome() {
        return resolved(outcome);
    }

    /** Whether the call has its answer. */
    final boolean lvAnswered() {
        return outcome != null;
    }

    /** The outcome as its callers see it (null while pending): an OK call answers with its own fields. */
    private CallAnswer resolved(CallOutcome word) {
        return word == OK_IN_CALL ? okAnswer() : word;
    }

    /**
     * Waits for the outcome up to {@code timeoutNanos}. On timeout a call not yet started is removed (it
     * will never run); one already running completes later and its result is discarded.
     *
     * <p>The deadline bounds the spin too: a timeout of 0 looks at the outcome once and times out if it is not there;
     * a positive one is checked every 64 spins, so the spin overruns a deadline by at most those few microseconds.
     */
    final CallAnswer await(long timeoutNanos) {
        CallOutcome result = outcome;
        if (result != null) {
            return resolved(result);
        }
        if (timeoutNanos == 0) {
            return timeOut(); // "does not wait": one look, above
        }
        long deadline = System.nanoTime() + timeoutNanos;
        for (int spin = 1; spin <= SPINS_BEFORE_PARK; spin++) {
            Thread.onSpinWait();
            result = outcome;
            if (result != null) {
                return resolved(result);
            }
            if (gate.isClosed()) {
                withdrawClosed();
                return lvOutcome(); // ours, or the result that beat us to it
            }
            // The clock every 64 spins, not every spin: a read costs as much as a spin here (~20 ns on a KVM guest).
            if ((spin & DEADLINE_SPINS_MASK) == 0) {
                Consumer<GateCall> observer = spinObserver;
                if (observer != null) {
                    observer.accept((GateCall) this);
                }
                if (deadline - System.nanoTime() <= 0) {
                    return timeOut();
                }
            }
        }
        try {
            return awaitParked(deadline);
        } finally {
            gate.parked(this);
            int parked = generation << GENERATION_SHIFT;
            if (!PARK_WORD.compareAndSet(this, parked | PARKED, parked | LEFT)) {
                claimedByClose = true; // a close has it (or it never registered): the close's, not ours to reuse
            }
        }
    }

    /** The deadline passed without an outcome: a call not started is cancelled (never runs), a running one's result is discarded. */
    private CallAnswer timeOut() {
        boolean neverStarted = casCancelIfQueued();
        casComplete(new CallOutcome(CallStatus.TIMED_OUT, neverStarted
                ? "timed out before the call started; it was removed and will not run"
                : "timed out while the call was running; its result will be discarded"));
        return lvOutcome(); // ours, or the result that beat us to it
    }

    /**
     * A queued call its actor's halt left unrun: answered by the actor's teardown, or by its parked caller if the caller
     * sees the halt first; either way the same answer.
     */
    final CallOutcome haltedWhileQueued() {
        CallStatus status = gate.terminatedStatus();
        return new CallOutcome(status, status == CallStatus.CLOSED
                ? "the runtime closed with the call still queued: the actor was halted by the close"
                : "the actor halted with the call still queued");
    }

    /**
     * Past the spin: registered with the gate, so its close can wake us, then parked until the outcome or the deadline,
     * looking every {@link #HALTED_LOOK_NANOS} whether the actor has halted with the call still queued.
     */
    private CallAnswer awaitParked(long deadline) {
        PARK_WORD.setVolatile(this, generation << GENERATION_SHIFT | PARKED); // before the gate's set holds it
        if (!gate.parking(this)) {
            withdrawClosed();
            return lvOutcome();
        }
        CallOutcome result;
        waiter = Thread.currentThread();
        while ((result = outcome) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return timeOut();
            }
            if (gate.actor().isTerminated() && casCancelIfQueued()) {
                casComplete(haltedWhileQueued()); // it will never run: the answer its teardown would give
                return lvOutcome();
            }
            LockSupport.parkNanos(this, Math.min(left, HALTED_LOOK_NANOS));
        }
        return resolved(result);
    }
}
