package dev.lanehost.callgate;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults of lanehost's own caught at an entry point (answered {@link CallStatus#INTERNAL_ERROR}). The
 * first fault of each entry is logged with its stack trace; later ones are only counted, so a host that
 * retries in a loop cannot flood the log from a real-time thread.
 */
public final class InternalErrors {
    private static final System.Logger LOG = System.getLogger("dev.lanehost.callgate");
    private static final ConcurrentMap<String, AtomicLong> BY_ENTRY = new ConcurrentHashMap<>();

    private InternalErrors() {
    }

    /** Records a fault caught in {@code entry}. Never throws. */
    public static void report(String entry, Throwable fault) {
        try {
            AtomicLong count = BY_ENTRY.computeIfAbsent(entry, e -> new AtomicLong());
            if (count.incrementAndGet() == 1) {
                LOG.log(System.Logger.Level.ERROR, "lanehost internal error in " + entry
                        + " (answered INTERNAL_ERROR; later ones in this entry are counted, not logged)", fault);
            }
        } catch (Throwable ignored) {
            // Reporting must not turn one fault into two at an upcall boundary.
        }
    }

    /** Records a fault caught in {@code entry} and answers it: INTERNAL_ERROR, naming the entry. Never throws. */
    static CallOutcome outcome(String entry, Throwable fault) {
        report(entry, fault);
        return new CallOutcome(CallStatus.INTERNAL_ERROR, "internal error in " + entry + ": " + fault.getClass().getName() + " (logged)");
    }

    /** Faults caught in {@code entry} so far. */
    public static long count(String entry) {
        AtomicLong count = BY_ENTRY.get(entry);
        return count == null ? 0 : count.get();
    }
}
