package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborOut;

/**
 * A call's outcome word's value: a failure's status and why. OK is never an outcome of its own: an OK call answers
 * with itself ({@link CallRendezvous#OK_IN_CALL} marks it), its result in the call's payload.
 */
record CallOutcome(CallStatus status, String detail) implements CallAnswer {
    @Override
    public CborOut encoded() {
        return null;
    }

    @Override
    public Object plain() {
        return null;
    }
}
