package dev.lanehost.callgate;

import java.util.concurrent.atomic.AtomicLong;

/** A gate's metrics: results that came after their caller had left, and callers answered, by status. Any thread. */
final class GateMetrics {
    private final AtomicLong discarded = new AtomicLong();
    private final AtomicLong[] byStatus = new AtomicLong[CallStatus.values().length];

    GateMetrics() {
        for (int i = 0; i < byStatus.length; i++) {
            byStatus[i] = new AtomicLong();
        }
    }

    void resultDiscarded() {
        discarded.incrementAndGet();
    }

    long discarded() {
        return discarded.get();
    }

    void answered(CallStatus status) {
        byStatus[status.ordinal()].incrementAndGet();
    }

    long withStatus(CallStatus status) {
        return byStatus[status.ordinal()].get();
    }
}
