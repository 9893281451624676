package dev.lanehost.lanes;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The priority policy of HOSTED's own threads ({@link RuntimeBuilder#priority}): each worker, blocking thread
 * and placement thread applies it to itself when it starts, and what it obtained — read back from the kernel,
 * or why it fell back — is recorded by thread name. Applying it never fails the thread.
 */
final class ThreadPriorities {
    private final PriorityPolicy policy;
    private final Affinity affinity;
    private final Map<String, PriorityResult> results = new ConcurrentHashMap<>();

    ThreadPriorities(PriorityPolicy policy, Affinity affinity) {
        this.policy = policy;
        this.affinity = affinity;
    }

    /** On {@code thread}, the calling thread, as it starts. Never throws. */
    void apply(Thread thread) {
        try {
            results.put(thread.getName(), policy.applyToCurrentThread(affinity));
        } catch (Throwable e) {
            RuntimeLog.internalError("applying the priority policy to " + thread.getName(), e);
        }
    }

    Map<String, PriorityResult> results() {
        return Map.copyOf(results);
    }
}
