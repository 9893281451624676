package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborIn;
import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.ReusableTask;
import dev.lanehost.lanes.budget.UnchargedWork;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One call in flight: the letter queued on the actor (a {@link ReusableTask}, so queuing it allocates nothing) and
 * the caller's rendezvous. A caller through the CBOR entries keeps its calls in its {@link CallReply} and reuses one
 * once the runtime is done with it ({@link #reusable}).
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
 *       snapshot of the actor's values and no user code runs afterwards. That copy is not charged to the actor's
 *       turn budget ({@code UnchargedWork}): the budget is the handler's, the copy grows with a legal result.</li>
 *   <li>Whatever the handler does — return, throw, return a stage whose methods throw — the turn ends
 *       through one {@code finally} that completes the call and frees its slot, unless a later turn
 *       (the stage's completion) has taken that duty over.</li>
 *   <li>Reuse (a {@link CallReply}'s calls only: a Java caller's call is used once and never marks {@code done}): the
 *       turn (or the teardown that abandons the call) sets {@code done} as the last thing it does with the call,
 *       after the call left the queue and (unless a stage's later turn finishes it) freed its slot. A call is reused
 *       only when it was never queued, or when it is done and never waited for a stage (a park's hooks
 *       keep such a call), and when no closing gate claimed it while its caller was parked (the caller leaving the
 *       park and the close each try to move the park word, which carries the use's generation: only the first acts,
 *       so a close never withdraws a use its caller has left). Between one use and the next its caller has read the
 *       answer, so nothing else refers to it.</li>
 * </ol>
 */
final class GateCall extends ReusableTask implements CallAnswer {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int CANCELLED = 2;
    private static final VarHandle STATE;
    private static final VarHandle OUTCOME;
    private static final VarHandle SLOT_RELEASED;
    private static final VarHandle DONE;
    private static final VarHandle WAITER;
    private static final VarHandle PARK_WORD;
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
    /** A call without arguments: a CBOR handler reads null. */
    private static final byte[] NULL_ITEM = {(byte) 0xf6};
    /** An argument buffer a reused call keeps between calls; a call that grew past this gives it up. */
    private static final int KEPT_ARGUMENT_BYTES = 64 << 10;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(GateCall.class, "state", int.class);
            OUTCOME = lookup.findVarHandle(GateCall.class, "outcome", Outcome.class);
            SLOT_RELEASED = lookup.findVarHandle(GateCall.class, "slotReleased", boolean.class);
            DONE = lookup.findVarHandle(GateCall.class, "done", boolean.class);
            WAITER = lookup.findVarHandle(GateCall.class, "waiter", Thread.class);
            PARK_WORD = lookup.findVarHandle(GateCall.class, "parkWord", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A failure's status and why. OK is never an outcome of its own: an OK call answers with itself. */
    record Outcome(CallStatus status, String detail) implements CallAnswer {
        @Override
        public CborOut encoded() {
            return null;
        }

        @Override
        public Object plain() {
            return null;
        }
    }

    /**
     * The outcome word's value for OK, whose result sits in the call's own fields ({@code out}, {@code okPlain}):
     * a caller spinning on the word then reads one line the worker wrote, not that line and then a new outcome
     * object's. Callers see it only through {@link #resolved}.
     */
    private static final Outcome OK_IN_CALL = new Outcome(CallStatus.OK, "");

    private CallGate gate;
    /**
     * A {@link CallReply}'s call, used again and again: only such a call needs {@code done}. A Java caller's call is
     * used once, and skipping the write keeps the turn off the line its caller reads the answer from.
     */
    private final boolean kept;
    /** The arguments as plain values, for a {@link CallHandler}. */
    private Object args;
    /** The arguments as CBOR, {@code argBytes[0, argLength)}, for a {@link CborCallHandler}; the array is the call's. */
    private byte[] argBytes;
    /** {@code argBytes} as a segment, made with the array: a copy into a bare array wraps it anew each time (~56 B when the JIT does not remove it). */
    private MemorySegment argSegment;
    private int argLength;
    /** callOnLane: the result must be immediate; a pending CompletionStage is a contract violation. */
    private boolean immediate;
    /** A CBOR caller: the result stays encoded (in {@code out}); a Java caller gets a plain copy, no bytes. */
    private boolean encodedResult;
    /** The offer queued it: it is the runtime's until {@code done} (a {@link CallReply}'s call), or for good (a Java caller's). */
    private boolean queuedOnce;
    /** It waited for a stage: a park's hooks refer to it, so it is never reused. */
    private boolean awaitedStage;
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
    GateCall parkedPrev;
    GateCall parkedNext;
    boolean parkedListed;
    private CborIn reader;
    private CborOut out;
    @SuppressWarnings("unused")
    private volatile int state;
    private volatile Outcome outcome;
    /** An OK outcome's plain result, for {@link #OK_IN_CALL}: written by the turn before its CAS publishes the outcome. */
    private Object okPlain;
    /** The OK result as the turn made it, moved to {@code okPlain} as the outcome is set; cleared by reset and forget. */
    private Object resultPlain;
    private volatile Thread waiter;
    /**
     * Frees the call's slot once where more than one party may try: a cancel before the start, the teardown that
     * abandons it, a stage's hooks and the turn that waited for the stage. A turn that answers alone frees the slot
     * without it ({@link #finishAlone}), and it stays false.
     */
    @SuppressWarnings("unused")
    private volatile boolean slotReleased;
    /** A {@link CallReply}'s call: the turn or the teardown is done with it, the last write either makes. */
    @SuppressWarnings("unused")
    private volatile boolean done;

    /** A Java caller's call: plain arguments in, a plain copy of the result out. */
    GateCall(CallGate gate, Object args, boolean immediate) {
        this.gate = gate;
        this.args = args;
        this.immediate = immediate;
        this.kept = false;
    }

    /** A call for {@link CallReply}'s pool, made ready by {@link #reset} before each use. */
    GateCall() {
        this.kept = true;
    }

    /** Ready for a CBOR caller's next call. Plain stores: the mailbox offer's release publishes them to the actor's thread. */
    void reset(CallGate gate, boolean immediate) {
        this.gate = gate;
        this.args = null;
        this.argLength = 0;
        this.immediate = immediate;
        this.encodedResult = true;
        this.queuedOnce = false;
        this.awaitedStage = false;
        this.claimedByClose = false;
        PARK_WORD.set(this, ++generation << GENERATION_SHIFT | NOT_PARKED);
        this.okPlain = null;
        this.resultPlain = null;
        STATE.set(this, QUEUED);
        OUTCOME.set(this, (Outcome) null);
        WAITER.set(this, (Thread) null);
        SLOT_RELEASED.set(this, false);
        DONE.set(this, false);
    }

    /** A kept call its runtime is done with ({@link #reusable()}): drop what ties it to a gate until {@link #reset}. */
    void forget() {
        this.gate = null;
        this.args = null;
        this.okPlain = null;
        this.resultPlain = null;
        OUTCOME.set(this, (Outcome) null);
    }

    /** Whether the runtime is done with this call and its caller may make it the next one. Its caller's thread. */
    boolean reusable() {
        // Done is the last write of the turn or the abandonment: the call left the queue before it, and freed its slot
        // unless a stage's later turn finishes it.
        return !claimedByClose && (!queuedOnce || done && !awaitedStage);
    }

    void queued() {
        queuedOnce = true;
    }

    /**
     * The caller's CBOR arguments, copied into the call's own array ({@code length} 0: none). A blocking caller may
     * time out and reuse its buffer while the turn still reads: the turn reads only the copy.
     */
    void copyArguments(MemorySegment source, long offset, int length) {
        if (argSegment == null || argBytes.length < length || argBytes.length > KEPT_ARGUMENT_BYTES && length <= KEPT_ARGUMENT_BYTES) {
            argBytes = new byte[Math.max(length, 64)];
            argSegment = MemorySegment.ofArray(argBytes);
        }
        if (length > 0) {
            MemorySegment.copy(source, offset, argSegment, 0, length);
        }
        argLength = length;
    }

    /** A Java caller's plain arguments for a CBOR gate: encoded once, at the call. */
    void encodeArguments(Object plainArgs) throws PlainValueException {
        argBytes = CallGate.CODEC.encode(plainArgs);
        argSegment = null; // not this array's: the next copy makes its own
        argLength = argBytes.length;
    }

    /** For a plain gate: the CBOR arguments as the handler's values, decoded (and refused if malformed) before queuing. */
    void decodeArguments() throws PlainValueException {
        args = argLength == 0 ? null : CallGate.CODEC.decode(argBytes, 0, argLength);
    }

    /** For a CBOR gate: the arguments checked whole before queuing, so the handler meets well-formed input. */
    void validateArguments() throws PlainValueException {
        if (argLength > 0) {
            PlainCodec.validate(argBytes, 0, argLength);
        }
    }

    // ---------------------------------------------------------------- the actor's turn

    @Override
    public void run(ActorContext context) throws Exception {
        try {
            runTurn(context);
        } finally {
            markDone();
        }
    }

    private void runTurn(ActorContext context) throws Exception {
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
            CborCallHandler cborHandler = gate.cborHandler();
            if (cborHandler != null) {
                ending = handleCbor(cborHandler, context);
                return;
            }
            Object value = gate.handler().handle(context, args);
            if (value instanceof CompletionStage<?> stage) {
                CompletableFuture<?> future = stage.toCompletableFuture();
                if (!future.isDone()) {
                    if (immediate) {
                        ending = new Outcome(CallStatus.CALLBACK_SUSPENDED,
                                "the handler returned a pending CompletionStage, which callOnLane cannot wait for");
                        throw new CallbackSuspendedException(gate.actor().name());
                    }
                    awaitStage(context, future);
                    laterTurnFinishes = true;
                    return;
                }
                value = future.join();
            }
            UnchargedWork.startsNow(context); // the handler's budget ends here: the copy of its result is ours
            ending = outcomeOf(value);
        } catch (Throwable failure) {
            if (ending == null) {
                ending = new Outcome(CallStatus.CALLBACK_FAILED, "the handler threw " + describe(failure));
            }
            throw failure; // and the actor halts by the normal rules
        } finally {
            if (!laterTurnFinishes) {
                Outcome result = ending != null ? ending : new Outcome(CallStatus.CALLBACK_FAILED, "the handler did not return");
                if (awaitedStage) {
                    finish(result); // a stage's hooks may finish it too: the first counts
                } else {
                    finishAlone(result);
                }
            }
        }
    }

    /**
     * A CBOR handler's turn: it reads the arguments where they lie and writes the result into the call's writer. A
     * {@link PlainValueException} it lets out is the call's answer, not the actor's failure.
     */
    private Outcome handleCbor(CborCallHandler cborHandler, ActorContext context) throws Exception {
        CborIn in = reader == null ? reader = new CborIn() : reader;
        if (argLength == 0) {
            in.wrap(NULL_ITEM, 0, 1);
        } else {
            in.wrap(argBytes, 0, argLength);
        }
        CborOut result = resultWriter().limit(gate.maxResultBytes());
        try {
            cborHandler.handle(context, in, result);
            UnchargedWork.startsNow(context); // the handler's budget ends here: checking or copying its result is ours
            if (result.length() == 0) {
                result.writeNull();
            }
        } catch (PlainValueException e) {
            return new Outcome(CallStatus.of(e.failure()), "the handler: " + e.getMessage());
        }
        try {
            if (encodedResult) {
                PlainCodec.validate(result.array(), 0, result.length());
            } else {
                resultPlain = CallGate.CODEC.decode(result.array(), 0, result.length()); // validates first
            }
        } catch (PlainValueException e) {
            return new Outcome(CallStatus.NOT_SERIALIZABLE, "the handler's result is not one plain CBOR item: " + e.getMessage());
        }
        return OK_IN_CALL;
    }

    /** The call's result writer, empty. */
    private CborOut resultWriter() {
        return out == null ? out = new CborOut() : out.clear();
    }

    /** The blocking entry: finish in a later turn of the actor, when the stage completes. */
    private void awaitStage(ActorContext context, CompletableFuture<?> future) {
        awaitedStage = true;
        Park<Object[]> park = context.park((c, completion) -> {
            UnchargedWork.startsNow(c); // this turn only copies the stage's value: none of it is the handler's
            if (completion[1] != null) {
                finish(new Outcome(CallStatus.CALLBACK_FAILED,
                        "the handler's CompletionStage failed with " + describe((Throwable) completion[1])));
            } else {
                finish(outcomeOf(completion[0]));
            }
        }, () -> finish(new Outcome(gate.terminatedStatus(), "the actor halted before the result was ready")));
        future.whenComplete((value, failure) -> park.complete(new Object[] {value, failure}));
    }

    /** The handler's value as the caller's outcome, encoded or copied now. Never throws. */
    private Outcome outcomeOf(Object value) {
        PlainCodec.Copy copy = null;
        long length;
        try {
            if (encodedResult) {
                CborOut result = resultWriter();
                CallGate.CODEC.encode(value, result);
                length = result.length();
            } else {
                copy = CallGate.CODEC.copy(value);
                length = copy.encodedLength();
            }
        } catch (PlainValueException e) {
            return new Outcome(CallStatus.of(e.failure()), e.getMessage());
        } catch (Throwable e) { // OutOfMemoryError, StackOverflowError, or a codec bug: the caller still gets an answer
            return new Outcome(CallStatus.OUT_OF_MEMORY, "encoding the result failed: " + e.getClass().getName());
        }
        if (length > gate.maxResultBytes()) {
            return new Outcome(CallStatus.OUT_OF_MEMORY, "the result is " + length
                    + " bytes, more than the gate's limit of " + gate.maxResultBytes());
        }
        resultPlain = copy == null ? null : copy.value();
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
        try {
            releaseSlot();
            complete(haltedWhileQueued());
        } finally {
            markDone();
        }
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

    /** The last write of the turn or the teardown that abandons the call, for a {@link CallReply}'s call to be reused. */
    private void markDone() {
        if (kept) {
            DONE.setRelease(this, true);
        }
    }

    /**
     * {@link #finish} for a turn that started the call and waited for no stage: nobody else can free its slot (a
     * cancel needs the call still queued, a teardown a call never run, and no park's hooks refer to it), so the slot is
     * freed without the flag's CAS, a write to the line its caller spins on.
     */
    private void finishAlone(Outcome result) {
        gate.slotReleased();
        if (!complete(result)) {
            gate.resultDiscarded();
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
        if (result == OK_IN_CALL) {
            okPlain = resultPlain; // just before the CAS: one fetch of the line the caller spins on, not two
        }
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
     * A closing gate found this call's caller parked: withdraw it, unless the caller has left the park (it then has
     * its answer and may already be using the call for its next call).
     */
    void withdrawParkedClosed(CallGate closing) {
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
    void withdrawClosed() {
        withdraw(CallStatus.CLOSED, "the gate was closed while the call was pending");
    }

    /**
     * The caller's side ends the call with a failure: a call not yet started is dequeued (it will never
     * run); a running one finishes later and its result is discarded.
     */
    void withdraw(CallStatus status, String detail) {
        cancelIfQueued();
        complete(new Outcome(status, detail));
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
    public CborOut encoded() {
        return encodedResult ? out : null;
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
     *
     * <p>The deadline bounds the spin too: a timeout of 0 looks at the outcome once and times out if it is not there;
     * a positive one is checked every 64 spins, so the spin overruns a deadline by at most those few microseconds.
     */
    CallAnswer await(long timeoutNanos) {
        Outcome result = outcome;
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
                return outcome(); // ours, or the result that beat us to it
            }
            // The clock every 64 spins, not every spin: a read costs as much as a spin here (~20 ns on a KVM guest).
            if ((spin & DEADLINE_SPINS_MASK) == 0) {
                Consumer<GateCall> observer = spinObserver;
                if (observer != null) {
                    observer.accept(this);
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

    /**
     * Tests only: run by a spinning caller every 64 spins, on its own thread (null otherwise). A test makes a call
     * complete inside the spin window with it, which a timeout of 0 must never wait for.
     */
    static Consumer<GateCall> spinObserver;

    /** The deadline passed without an outcome: a call not started is cancelled (never runs), a running one's result is discarded. */
    private CallAnswer timeOut() {
        boolean neverStarted = cancelIfQueued();
        complete(new Outcome(CallStatus.TIMED_OUT, neverStarted
                ? "timed out before the call started; it was removed and will not run"
                : "timed out while the call was running; its result will be discarded"));
        return outcome(); // ours, or the result that beat us to it
    }

    /**
     * A queued call its actor's halt left unrun: answered by the actor's teardown, or by its parked caller if the caller
     * sees the halt first; either way the same answer.
     */
    private Outcome haltedWhileQueued() {
        CallStatus status = gate.terminatedStatus();
        return new Outcome(status, status == CallStatus.CLOSED
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
            return outcome();
        }
        Outcome result;
        waiter = Thread.currentThread();
        while ((result = outcome) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return timeOut();
            }
            if (gate.actorHalted() && cancelIfQueued()) {
                complete(haltedWhileQueued()); // it will never run: the answer its teardown would give
                return outcome();
            }
            LockSupport.parkNanos(this, Math.min(left, HALTED_LOOK_NANOS));
        }
        return resolved(result);
    }
}
