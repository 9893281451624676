package dev.lanehost.callgate;

/**
 * What a finished call answers its caller, before it becomes a {@link CallResult}, an {@link EncodedCallResult} or a
 * {@link CallReply}: a failure's {@link CallOutcome}, or for OK the call itself, whose fields the turn wrote the
 * result into — so an answered call allocates no outcome of its own.
 */
sealed interface CallAnswer permits GateCall, CallOutcome {
    CallStatus status();

    /** The length of an OK call's encoded result, for a CBOR caller; -1 if there is none. */
    int encodedLength();

    /**
     * Copies an OK call's encoded result, {@link #encodedLength()} bytes, into {@code target} from 0 (a CBOR caller, before
     * the call is reused).
     */
    void copyEncoded(byte[] target);

    /** The plain copy of an OK call's result for a Java caller, else null. */
    Object plain();

    /** Why, for a failure; empty for OK. */
    String detail();
}
