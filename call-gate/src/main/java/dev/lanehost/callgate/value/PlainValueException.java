package dev.lanehost.callgate.value;

import dev.lanehost.callgate.CallStatus;
import java.util.Objects;

/**
 * A value could not cross a call gate: the status a gate returns for it, and a message naming the problem
 * and where it is — a path such as {@code $.users[3].name} when encoding, a byte offset from the start of
 * the input when decoding.
 *
 * <p>The status is one of {@link CallStatus#NOT_SERIALIZABLE} (encoding: not a plain value),
 * {@link CallStatus#OUT_OF_MEMORY} (encoding: larger than the caller's buffer; either way: memory or thread
 * stack ran out) and {@link CallStatus#INVALID_ARGUMENT} (decoding: malformed or non-plain CBOR; either
 * way: a null buffer or a bad offset or length).
 */
public final class PlainValueException extends Exception {

    private final CallStatus status;

    PlainValueException(CallStatus status, String message) {
        this(status, message, null);
    }

    PlainValueException(CallStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = Objects.requireNonNull(status, "status");
    }

    /** The status a gate reports for this failure. */
    public CallStatus status() {
        return status;
    }
}
