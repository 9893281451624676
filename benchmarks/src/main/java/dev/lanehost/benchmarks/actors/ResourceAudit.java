package dev.lanehost.benchmarks.actors;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ResourceCounts;
import java.util.concurrent.locks.LockSupport;

/**
 * Fails a benchmark loudly when lanehost leaked: after a scenario every actor, signal, timer, park and arena
 * must be gone, or the throughput was bought with a leak.
 */
final class ResourceAudit {
    /** Teardown runs on the worker after the halt; this is ample for a million queued teardowns. */
    private static final long SETTLE_NANOS = 60_000_000_000L;
    /** Polls the counts every millisecond: often enough not to lengthen the teardown, rarely enough not to slow it. */
    private static final long POLL_NANOS = 1_000_000L;

    private ResourceAudit() {
    }

    /**
     * Waits, up to a deadline, for every resource to be torn down while the runtime still runs (the actors
     * stopped themselves), then throws if any is left.
     */
    static void awaitNone(ActorRuntime runtime, String scenario) {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        ResourceCounts counts = runtime.resources();
        while (!counts.equals(ResourceCounts.NONE) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
            counts = runtime.resources();
        }
        requireNone(counts, scenario + ", before close");
    }

    /** Closes the runtime and throws if anything survived the close. */
    static void closeAndCheck(ActorRuntime runtime, String scenario) {
        runtime.close();
        requireNone(runtime.resources(), scenario + ", after close");
    }

    private static void requireNone(ResourceCounts counts, String when) {
        if (!counts.equals(ResourceCounts.NONE)) {
            throw new IllegalStateException("lanehost leaked resources (" + when + "): " + counts);
        }
    }
}
