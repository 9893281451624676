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

    static CallResult failure(CallStatus status, String detail) {
        return new CallResult(status, null, detail);
    }
}
