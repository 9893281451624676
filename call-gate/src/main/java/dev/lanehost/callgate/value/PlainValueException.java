package dev.lanehost.callgate.value;

import java.util.Objects;

/**
 * A value could not cross a call gate: the kind of failure (a gate returns the status of the same name), and a message naming the problem
 * and where it is — a path such as {@code $.users[3].name} when encoding, a byte offset from the start of
 * the input when decoding.
 *
 * <p>The status is one of {@link PlainValueFailure#NOT_SERIALIZABLE} (encoding: not a plain value),
 * {@link PlainValueFailure#OUT_OF_MEMORY} (encoding: larger than the caller's buffer; either way: memory or thread
 * stack ran out) and {@link PlainValueFailure#INVALID_ARGUMENT} (decoding: malformed or non-plain CBOR; either
 * way: a null buffer or a bad offset or length).
 */
public final class PlainValueException extends Exception {

    private final PlainValueFailure failure;

    PlainValueException(PlainValueFailure failure, String message) {
        this(failure, message, null);
    }

    PlainValueException(PlainValueFailure failure, String message, Throwable cause) {
        super(message, cause);
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** What went wrong; a gate reports it as the {@code CallStatus} of the same name. */
    public PlainValueFailure failure() {
        return failure;
    }
}
