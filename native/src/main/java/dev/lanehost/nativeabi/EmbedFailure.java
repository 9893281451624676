package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;

/** Why an embedded start failed: the status {@code lanehost_embed_start} answers and its last-error sentence. */
final class EmbedFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger("dev.lanehost.nativeabi");
    private final transient CallStatus status;

    EmbedFailure(CallStatus status, String sentence) {
        super(sentence, null, false, false); // a report, not a debugging aid: no stack trace to fill
        this.status = status;
    }

    CallStatus status() {
        return status;
    }

    /**
     * The setup's own code threw ({@code where}: its constructor, static initializer or {@code setup}): CALLBACK_FAILED,
     * or OUT_OF_MEMORY for an exhausted heap. The stack trace goes to the log (stderr by default), for the setup's
     * author; the host gets the one-line sentence.
     */
    static EmbedFailure setupThrew(String where, Throwable thrown) {
        String sentence = where + " threw " + ThrowableSummary.of(thrown);
        CallStatus status = thrown instanceof OutOfMemoryError ? CallStatus.OUT_OF_MEMORY : CallStatus.CALLBACK_FAILED;
        try {
            LOG.log(System.Logger.Level.ERROR, "lanehost_embed_start answers " + status + ": " + sentence, thrown);
        } catch (Throwable ignored) {
            // Logging runs the exception's toString(), user code; the start still answers its status.
        }
        return new EmbedFailure(status, sentence);
    }
}
