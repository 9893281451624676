package dev.lanehost.callgate;

/**
 * Every outcome of a gate call, and of every entry of the C host table. The numbers are stable and shared with
 * C ({@code lanehost_status}, {@code LANEHOST_*} in {@code lanehost.h}); a test compares the two. Constants are grouped by meaning, not by number: look a
 * status up with {@link #ofCode}, never by ordinal.
 */
public enum CallStatus {
    /** The handler returned and its result was encoded. */
    OK(0),
    /** The caller gave up: a call not yet started was removed and will never run; one already running completes and its result is discarded. */
    TIMED_OUT(1),
    /** The handler returned a pending result where an immediate one is required (callOnLane); the actor is disrupted. */
    CALLBACK_SUSPENDED(2),
    /**
     * A Java value (a Java caller's arguments, or the handler's result) is not a plain value: a cycle, nesting past the
     * limit, or an unsupported type; or a CBOR handler's result is not one plain item. CBOR arguments that are not one
     * plain value (a C host's, or a buffer given to the CBOR entry) are {@link #INVALID_ARGUMENT}.
     */
    NOT_SERIALIZABLE(3),
    /** The result is larger than the caller's buffer, or memory ran out encoding it. */
    OUT_OF_MEMORY(4),
    /** The handler threw; the actor halts by the normal rules. */
    CALLBACK_FAILED(5),
    /** The actor has halted. */
    ACTOR_TERMINATED(6),
    /** Admission: the gate already has its {@code maxPending} calls occupying the actor, or the actor's mailbox or lane is full. Nothing was queued. */
    REFUSED(7),
    /**
     * Called from a thread that may not make this call: the blocking entry on a thread that may run the target's
     * turns (its lane's thread, a HOSTED worker, a blocking thread for a blocking target), or {@code callOnLane}
     * off the lane's thread.
     */
    WRONG_THREAD(8),
    /** A bad handle, null pointer, bad length, negative bound, or CBOR that is malformed or not one plain value. */
    INVALID_ARGUMENT(9),
    /** lanehost itself failed inside the entry (a bug, reported and logged); not the caller's fault. */
    INTERNAL_ERROR(11),
    /** The gate was closed, or the runtime closed (pending calls end with it; queued ones never run). */
    CLOSED(10);

    /** Indexed by code, whatever order the constants are declared in. */
    private static final CallStatus[] BY_CODE = byCode();

    private final int code;

    CallStatus(int code) {
        this.code = code;
    }

    /** The stable number C sees. */
    public int code() {
        return code;
    }

    /** The status with this number, or {@code null} if none has it. */
    public static CallStatus ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The status a gate reports for a value that could not cross. */
    public static CallStatus of(dev.lanehost.callgate.value.PlainValueFailure failure) {
        return switch (failure) {
            case NOT_SERIALIZABLE -> NOT_SERIALIZABLE;
            case OUT_OF_MEMORY -> OUT_OF_MEMORY;
            case INVALID_ARGUMENT -> INVALID_ARGUMENT;
        };
    }

    private static CallStatus[] byCode() {
        int highest = 0;
        for (CallStatus status : values()) {
            highest = Math.max(highest, status.code);
        }
        CallStatus[] table = new CallStatus[highest + 1];
        for (CallStatus status : values()) {
            if (table[status.code] != null) {
                throw new ExceptionInInitializerError("two statuses share code " + status.code);
            }
            table[status.code] = status;
        }
        return table;
    }
}
