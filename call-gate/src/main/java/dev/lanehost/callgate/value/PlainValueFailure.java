package dev.lanehost.callgate.value;

/**
 * Why a value could not cross: the codec's own kinds of failure, which a call gate reports as the
 * {@code PlainValueFailure} of the same name (the codec knows nothing of gates, so the two packages do not depend
 * on each other in a cycle).
 */
public enum PlainValueFailure {
    /** Encoding: not a plain value (a cycle, nesting past the limit, an unsupported type, a throwing accessor). */
    NOT_SERIALIZABLE,
    /** Encoding: larger than the caller's buffer; either way: memory or thread stack ran out. */
    OUT_OF_MEMORY,
    /** Decoding: malformed or non-plain CBOR; either way: a null buffer or a bad offset or length. */
    INVALID_ARGUMENT
}
