package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborOut;

/**
 * What a finished call answers its caller, before it becomes a {@link CallResult}, an {@link EncodedCallResult} or a
 * {@link CallReply}: a failure's {@link CallOutcome}, or for OK the call itself, whose fields the turn wrote the
 * result into — so an answered call allocates no outcome of its own.
 */
sealed interface CallAnswer permits GateCall, CallOutcome {
    CallStatus status();

    /** The encoded result of an OK call for a CBOR caller (the call's own writer: copy it out before the call is reused), else null. */
    CborOut encoded();

    /** The plain copy of an OK call's result for a Java caller, else null. */
    Object plain();

    /** Why, for a failure; empty for OK. */
    String detail();
}
