package dev.lanehost.callgate;

/**
 * A call's outcome word's value: a failure's status and why. OK is never an outcome of its own: an OK call answers
 * with itself ({@link CallRendezvous#OK_IN_CALL} marks it), its result in the call's payload.
 */
record CallOutcome(CallStatus status, String detail) implements CallAnswer {
    @Override
    public int encodedLength() {
        return -1;
    }

    @Override
    public void copyEncoded(byte[] target) {
        throw new IllegalStateException("a failure has no result");
    }

    @Override
    public Object plain() {
        return null;
    }
}
