package dev.lanehost.affinity;

/**
 * What applying an affinity to the current thread did: the runtime records one per worker or blocking
 * thread at start, whether it was applied or fell back.
 *
 * @param outcome   applied, fell back, or nothing was asked
 * @param requested the CPUs asked for (empty when nothing was asked or none could be chosen)
 * @param applied   the thread's mask afterwards, read back from the kernel; empty if unknown. With nothing requested,
 *                  the mask the thread inherited from the thread that started it (a thread started by a pinned
 *                  thread runs where that one does)
 * @param status    the native status behind a fallback ({@link AffinityStatus#OK} otherwise)
 * @param reason    why it fell back, in words a log reader can act on; {@code "applied"} or {@code "not requested"} otherwise
 */
public record AffinityResult(Outcome outcome, CpuSet requested, CpuSet applied, AffinityStatus status, String reason) {

    public enum Outcome {
        /** The thread now runs only on {@code requested}. */
        APPLIED,
        /** The thread kept its previous mask; {@code reason} says why. Never an error: affinity is best effort. */
        FELL_BACK,
        /** The policy asked for nothing ({@link AffinityPolicy#NONE}). */
        NOT_REQUESTED
    }

    static AffinityResult applied(CpuSet cpus) {
        return new AffinityResult(Outcome.APPLIED, cpus, cpus, AffinityStatus.OK, "applied");
    }

    static AffinityResult fellBack(CpuSet requested, AffinityStatus status, String reason) {
        return new AffinityResult(Outcome.FELL_BACK, requested, CpuSet.empty(), status, reason);
    }

    static AffinityResult notRequested() {
        return notRequested(CpuSet.empty());
    }

    /** Nothing was asked; the thread runs on {@code inherited} (empty if unknown). */
    static AffinityResult notRequested(CpuSet inherited) {
        return new AffinityResult(Outcome.NOT_REQUESTED, CpuSet.empty(), inherited, AffinityStatus.OK, "not requested");
    }

    public boolean isApplied() {
        return outcome == Outcome.APPLIED;
    }

    @Override
    public String toString() {
        return switch (outcome) {
            case APPLIED -> "pinned to CPUs " + applied;
            case NOT_REQUESTED -> "no affinity requested" + (applied.isEmpty() ? "" : ": runs on CPUs " + applied
                    + ", the mask it inherited from the thread that started it");
            case FELL_BACK -> "not pinned" + (requested.isEmpty() ? "" : " to CPUs " + requested) + ": " + reason;
        };
    }
}
