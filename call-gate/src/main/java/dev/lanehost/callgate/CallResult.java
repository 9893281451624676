package dev.lanehost.callgate;

/**
 * The outcome of a gate call.
 *
 * @param status what happened
 * @param value  the result as plain values when {@code status} is {@link CallStatus#OK}, else null
 * @param detail why, for anything but OK (never null; empty for OK)
 */
public record CallResult(CallStatus status, Object value, String detail) {
    public boolean isOk() {
        return status == CallStatus.OK;
    }

    /** A Java caller's view of a call's answer: a plain copy of an OK call's result. */
    static CallResult of(CallAnswer answer) {
        return answer.status() == CallStatus.OK ? new CallResult(CallStatus.OK, answer.plain(), "")
                : failure(answer.status(), answer.detail());
    }

    static CallResult failure(CallStatus status, String detail) {
        return new CallResult(status, null, detail);
    }
}
