package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;

/** Why an embedded start failed: the status {@code lanehost_embed_start} answers and its last-error sentence. */
final class EmbedFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient CallStatus status;

    EmbedFailure(CallStatus status, String sentence) {
        super(sentence, null, false, false); // a report, not a debugging aid: no stack trace to fill
        this.status = status;
    }

    CallStatus status() {
        return status;
    }
}
