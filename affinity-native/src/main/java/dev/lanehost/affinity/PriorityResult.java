package dev.lanehost.affinity;

import java.util.Objects;
import java.util.Optional;

/**
 * What applying a {@link PriorityPolicy} to the current thread did: the runtime records one per thread at
 * start, as it does an {@link AffinityResult}.
 *
 * @param requested the policy applied
 * @param outcome   applied, fell back, or nothing was asked
 * @param obtained  the thread's class, priority and nice read back from the kernel after the attempt;
 *                  empty only when the library is not loaded or the read failed
 * @param status    the native status behind a fallback (the real-time refusal's, if that came first);
 *                  {@link AffinityStatus#OK} otherwise
 * @param reason    why it fell back and what it fell back to, in words a log reader can act on
 *                  ({@code "EPERM: no CAP_SYS_NICE and RLIMIT_RTPRIO 0; fell back to nice 5"});
 *                  {@code "applied"} or {@code "not requested"} otherwise
 */
public record PriorityResult(PriorityPolicy requested, Outcome outcome, Optional<ThreadPriority> obtained,
                             AffinityStatus status, String reason) {

    public enum Outcome {
        /** The thread now has what the policy asked for, as read back from the kernel. */
        APPLIED,
        /**
         * The kernel refused (or the library is absent); the thread has what {@code obtained} says, maybe the
         * policy's fallback nice. Never an error: priority is best effort, like affinity.
         */
        FELL_BACK,
        /** The policy asked for nothing ({@link PriorityPolicy#none()}). */
        NOT_REQUESTED
    }

    public PriorityResult {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(obtained, "obtained");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
    }

    public boolean isApplied() {
        return outcome == Outcome.APPLIED;
    }

    @Override
    public String toString() {
        String has = obtained.map(ThreadPriority::toString).orElse("unknown");
        return switch (outcome) {
            case APPLIED -> requested + " applied: " + has;
            case NOT_REQUESTED -> "no priority requested: " + has;
            case FELL_BACK -> requested + " fell back: " + reason + " (now " + has + ")";
        };
    }
}
