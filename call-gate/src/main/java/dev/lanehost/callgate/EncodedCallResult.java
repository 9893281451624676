package dev.lanehost.callgate;

/**
 * The outcome of a gate call whose arguments and result stay CBOR, for callers that hold bytes rather than
 * objects (a C host through the host ABI, a bridge from another CBOR source).
 *
 * @param status what happened
 * @param cbor   the encoded result when {@code status} is {@link CallStatus#OK}, else null
 * @param detail why, for anything but OK (never null; empty for OK)
 */
public record EncodedCallResult(CallStatus status, byte[] cbor, String detail) {
    public boolean isOk() {
        return status == CallStatus.OK;
    }
}
