package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborIn;
import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.budget.UnchargedWork;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One call in flight: the task queued on the actor (a {@link dev.lanehost.lanes.ReusableTask}, so queuing it
 * allocates nothing), its payload (the arguments, and the result its turn writes) and the turn that turns the one into
 * the other. The race between the caller and the turn is {@link CallRendezvous}'s: this class decides nothing there,
 * it only hands the turn's outcome over ({@link #finish}, {@link #finishAlone}). A caller through the CBOR entries keeps
 * its calls in its {@link CallReply} and reuses one once the runtime is done with it.
 *
 * <ol>
 *   <li>The result is encoded inside the turn, right after the handler returns, so the caller gets a snapshot of the
 *       actor's values and no user code runs afterwards. That copy is not charged to the actor's turn budget
 *       ({@code UnchargedWork}): the budget is the handler's, the copy grows with a legal result.</li>
 *   <li>Whatever the handler does — return, throw, return a stage whose methods throw — the turn ends through one
 *       {@code finally} that completes the call and frees its slot, unless a later turn (the stage's completion) has
 *       taken that duty over.</li>
 *   <li>An OK result stays in the payload ({@code out}, {@code okPlain}; an encoded one of up to 16 bytes also in two
 *       words of the call); the outcome word's CAS publishes it, and the caller reads it from the call itself
 *       ({@link CallAnswer}).</li>
 * </ol>
 */
final class GateCall extends CallPayload implements CallAnswer {
    /** A call without arguments: a CBOR handler reads null. */
    private static final byte[] NULL_ITEM = {(byte) 0xf6};
    /** callOnLane: the result must be immediate; a pending CompletionStage is a contract violation. */
    private boolean immediate;
    private CborIn reader;
    /** An OK outcome's plain result: written by the turn just before the outcome's CAS publishes it. */
    private Object okPlain;
    /** The OK result as the turn made it, moved to {@code okPlain} as the outcome is set; cleared by reset and forget. */
    private Object resultPlain;

    /** A Java caller's call: plain arguments in (loaded next), a plain copy of the result out. */
    private GateCall(CallGate gate, boolean immediate) {
        super(gate, false);
        this.immediate = immediate;
    }

    /** A call for {@link CallReply}'s pool, made ready by {@link #reset} before each use. */
    GateCall() {
        super(null, true);
    }

    /** Ready for a CBOR caller's next call. Plain stores: the mailbox offer's release publishes them to the actor's thread. */
    void reset(CallGate gate, boolean immediate) {
        this.args = null;
        this.argLength = 0;
        this.immediate = immediate;
        this.encodedResult = true;
        this.okPlain = null;
        this.resultPlain = null;
        spRendezvous(gate);
    }

    /** A kept call its runtime is done with ({@link #reusable()}): drop what ties it to a gate until {@link #reset}. */
    void forget() {
        this.args = null;
        this.okPlain = null;
        this.resultPlain = null;
        spForgotten();
    }

    // ---------------------------------------------------------------- the arguments, before the call is queued

    /**
     * A Java caller's call: a plain copy of its arguments for a plain handler, their encoding for a CBOR handler (one
     * walk either way: both accept and refuse the same values).
     */
    static GateCall forJava(CallGate gate, Object args, boolean immediate) throws PlainValueException {
        GateCall call = new GateCall(gate, immediate);
        if (gate.cborHandler() == null) {
            call.loadPlainArguments(args);
        } else {
            call.encodeArguments(args);
        }
        return call;
    }

    // ---------------------------------------------------------------- the actor's turn

    @Override
    public void run(ActorContext context) throws Exception {
        try {
            runTurn(context);
        } finally {
            soDone();
        }
    }

    private void runTurn(ActorContext context) throws Exception {
        if (gate.isClosed()) {
            withdraw(CallStatus.CLOSED, "the gate was closed while the call was queued"); // a queued call never runs
            return;
        }
        if (!casRunning()) {
            return; // the caller gave up or the gate closed before we started: never runs
        }
        // Every way out of this turn passes the finally below, which completes the call unless a later
        // turn (a pending stage's completion) owns it. User code may throw from anywhere, including
        // toCompletableFuture(), isDone() and join(); none of it may leave the caller waiting.
        CallOutcome ending = null;
        boolean laterTurnFinishes = false;
        try {
            CborCallHandler cborHandler = gate.cborHandler();
            if (cborHandler != null) {
                ending = handleCbor(cborHandler, context);
                return;
            }
            Object value = gate.handler().handle(context, plainArguments());
            if (value instanceof CompletionStage<?> stage) {
                CompletableFuture<?> future = stage.toCompletableFuture();
                if (!future.isDone()) {
                    if (immediate) {
                        ending = new CallOutcome(CallStatus.CALLBACK_SUSPENDED,
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
                ending = new CallOutcome(CallStatus.CALLBACK_FAILED, "the handler threw " + describe(failure));
            }
            throw failure; // and the actor halts by the normal rules
        } finally {
            if (!laterTurnFinishes) {
                CallOutcome result = ending != null ? ending : new CallOutcome(CallStatus.CALLBACK_FAILED, "the handler did not return");
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
    private CallOutcome handleCbor(CborCallHandler cborHandler, ActorContext context) throws Exception {
        CborIn in = reader == null ? reader = new CborIn() : reader;
        if (argLength == 0) {
            in.wrap(NULL_ITEM, 0, 1);
        } else {
            in.wrap(turnArguments(), 0, argLength);
        }
        CborOut result = resultWriter().limit(gate.maxResultBytes());
        try {
            cborHandler.handle(context, in, result);
            UnchargedWork.startsNow(context); // the handler's budget ends here: checking or copying its result is ours
            if (result.length() == 0) {
                result.writeNull();
            }
        } catch (PlainValueException e) {
            return new CallOutcome(CallStatus.of(e.failure()), "the handler: " + e.getMessage());
        }
        try {
            if (encodedResult) {
                PlainCodec.validate(result.array(), 0, result.length());
            } else {
                resultPlain = CallGate.CODEC.decode(result.array(), 0, result.length()); // validates first
            }
        } catch (PlainValueException e) {
            return new CallOutcome(CallStatus.NOT_SERIALIZABLE, "the handler's result is not one plain CBOR item: " + e.getMessage());
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
                finish(new CallOutcome(CallStatus.CALLBACK_FAILED,
                        "the handler's CompletionStage failed with " + describe((Throwable) completion[1])));
            } else {
                finish(outcomeOf(completion[0]));
            }
        }, () -> finish(new CallOutcome(gate.terminatedStatus(), "the actor halted before the result was ready")));
        future.whenComplete((value, failure) -> park.complete(new Object[] {value, failure}));
    }

    /** The handler's value as the caller's outcome, encoded or copied now. Never throws. */
    private CallOutcome outcomeOf(Object value) {
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
            return new CallOutcome(CallStatus.of(e.failure()), e.getMessage());
        } catch (Throwable e) { // OutOfMemoryError, StackOverflowError, or a codec bug: the caller still gets an answer
            return new CallOutcome(CallStatus.OUT_OF_MEMORY, "encoding the result failed: " + e.getClass().getName());
        }
        if (length > gate.maxResultBytes()) {
            return new CallOutcome(CallStatus.OUT_OF_MEMORY, "the result is " + length
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
            casReleaseSlot();
            casComplete(haltedWhileQueued());
        } finally {
            soDone();
        }
    }

    /**
     * The actor is done with the call: free the slot and record the outcome (or count it discarded).
     * Only the first finish counts: a stage's park may end after its turn already failed the call.
     */
    private void finish(CallOutcome result) {
        if (!casReleaseSlot()) {
            return;
        }
        if (!handOver(result)) {
            gate.resultDiscarded(); // the caller already left (timed out, or the gate closed)
        }
    }

    /**
     * {@link #finish} for a turn that started the call and waited for no stage: nobody else can free its slot (a
     * cancel needs the call still queued, a teardown a call never run, and no park's hooks refer to it), so the slot is
     * freed without the flag's CAS, a write to the line its caller spins on.
     */
    private void finishAlone(CallOutcome result) {
        gate.slotReleased();
        if (!handOver(result)) {
            gate.resultDiscarded();
        }
    }

    /** The turn's outcome to the rendezvous; an OK one's plain result first, which the outcome's CAS publishes. */
    private boolean handOver(CallOutcome result) {
        if (result == OK_IN_CALL) {
            okPlain = resultPlain; // just before the CAS: one fetch of the line the caller spins on, not two
            if (encodedResult) {
                packSmallResult();
            }
        }
        return casComplete(result);
    }

    // ---------------------------------------------------------------- the call as its own answer

    // Handed out only once its outcome word holds OK_IN_CALL, whose CAS published these.

    @Override
    CallAnswer okAnswer() {
        return this;
    }

    @Override
    public CallStatus status() {
        return CallStatus.OK;
    }

    @Override
    public void copyEncoded(byte[] target) {
        int length = smallResultLength;
        if (length < 0) {
            System.arraycopy(out.array(), 0, target, 0, out.length());
            return;
        }
        for (int i = 0; i < length; i++) {
            target[i] = (byte) ((i < Long.BYTES ? smallResultLow >>> (8 * i) : smallResultHigh >>> (8 * (i - Long.BYTES))));
        }
    }

    @Override
    public Object plain() {
        return okPlain;
    }

    @Override
    public String detail() {
        return "";
    }
}
