package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborIn;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Where the CBOR entries that take a {@code CallReply} ({@link CallGate#callEncoded(MemorySegment, long, long, long,
 * CallReply)}, {@link CallGate#callOnLaneEncoded(dev.lanehost.lanes.ExecutionLane, MemorySegment, long, long, int, CallReply)}) put
 * their answer: the status, why (for a failure), and an OK call's encoded result. A caller keeps one per thread and
 * passes it to every call; it also keeps the caller's calls between uses, so a call through a gate opened with
 * {@link CallGate#openCbor} allocates nothing once the reply's arrays have grown to the sizes the calls need.
 *
 * <p>Owned by one thread at a time: the answer is overwritten by the next call made with it.
 */
public final class CallReply {
    /** A result array a reply keeps between calls; a result larger than this is held until the next call only. */
    private static final int KEPT_RESULT_BYTES = 64 << 10;

    private CallStatus status = CallStatus.OK;
    private String detail = "";
    private byte[] result = new byte[256];
    /** {@code result} as a segment, made with the array, so a copy out wraps nothing per call. */
    private MemorySegment resultSegment = MemorySegment.ofArray(result);
    private int resultLength;
    private CborIn reader;
    /** Two calls: a blocking call's worker may still be leaving the last one when its caller makes the next. */
    private final GateCall[] calls = new GateCall[2];
    private int nextSlot;

    public CallReply() {
    }

    /**
     * Each thread's reply for the entries that answer in new arrays: its calls and buffers are reused, and only the
     * answer's own objects are new. A handler on this thread that calls a gate inside such a call (a lane turn that a
     * {@code callOnLaneEncoded} drives) shares it safely: the reply's calls are taken only once the runtime is done
     * with them, and each entry reads its answer back before returning.
     */
    private static final ThreadLocal<CallReply> THREAD_REPLIES = ThreadLocal.withInitial(CallReply::new);

    /** This thread's reply, for the gate's entries that answer in new arrays. */
    static CallReply ofThisThread() {
        return THREAD_REPLIES.get();
    }

    /** A caller's CBOR arguments as a segment (none: the NULL segment, read for 0 bytes). */
    static MemorySegment segmentOf(byte[] bytes) {
        return bytes == null ? MemorySegment.NULL : MemorySegment.ofArray(bytes);
    }


    /** The last call's status. */
    public CallStatus status() {
        return status;
    }

    /** Why, for a failure; empty for OK. */
    public String detail() {
        return detail;
    }

    /** The encoded result's length after OK, else 0. */
    public int resultLength() {
        return resultLength;
    }

    /** The array holding the encoded result in {@code [0, resultLength())}; the reply's own, overwritten by the next call. */
    public byte[] resultArray() {
        return result;
    }

    /** A copy of the encoded result, or null for a failure. */
    public byte[] resultBytes() {
        return status == CallStatus.OK ? Arrays.copyOf(result, resultLength) : null;
    }

    /** The result read in place: the reply's own reader, aimed at it. */
    public CborIn resultReader() {
        CborIn in = reader == null ? reader = new CborIn() : reader;
        return in.wrap(result, 0, resultLength);
    }

    /** Copies the encoded result into {@code target} from {@code offset} (a C caller's buffer). */
    public void copyResult(MemorySegment target, long offset) {
        MemorySegment.copy(resultSegment, 0, target, offset, resultLength);
    }

    // ---------------------------------------------------------------- the gate's side

    /** A call ready for {@code gate}: one of this reply's, once the runtime is done with it, or a new one. */
    GateCall call(CallGate gate, boolean immediate) {
        GateCall call = calls[0];
        if (call == null || !call.reusable()) {
            call = calls[1];
            if (call == null || !call.reusable()) {
                call = new GateCall();
                calls[nextSlot] = call; // the one it replaces is the runtime's until done, then garbage
                nextSlot ^= 1;
            }
        }
        call.reset(gate, immediate);
        return call;
    }

    /** Records the answer, copying an OK call's encoded result out of the call. @return the status */
    CallStatus answer(CallAnswer answer) {
        if (answer.status() != CallStatus.OK) {
            return failed(answer.status(), answer.detail());
        }
        int length = answer.encodedLength(); // a reply's calls keep their result encoded
        if (result.length < length || result.length > KEPT_RESULT_BYTES && length <= KEPT_RESULT_BYTES) {
            result = new byte[Math.max(length, 256)];
            resultSegment = MemorySegment.ofArray(result);
        }
        answer.copyEncoded(result);
        resultLength = length;
        status = CallStatus.OK;
        detail = "";
        letGo();
        return CallStatus.OK;
    }

    CallStatus failed(CallStatus failure, String why) {
        status = failure;
        detail = why;
        resultLength = 0;
        letGo();
        return failure;
    }

    /**
     * The answer is recorded: a kept call the runtime is done with lets go of its gate and values, so a thread that
     * calls no more (a host's long-lived thread, after its runtime stopped) keeps no gate, actor or runtime
     * reachable. One the runtime still holds (a worker leaving the turn) keeps them until the thread's next call.
     */
    private void letGo() {
        for (GateCall call : calls) {
            if (call != null && call.reusable()) {
                call.forget();
            }
        }
    }
}
