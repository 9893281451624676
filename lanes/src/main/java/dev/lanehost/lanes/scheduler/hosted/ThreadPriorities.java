package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityRange;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The priority policy of HOSTED's own threads ({@code RuntimeBuilder.priority}): each worker, blocking thread
 * and placement thread applies it to itself when it starts, and what it obtained — read back from the kernel,
 * or why it fell back — is recorded by thread name. Applying it never fails the thread.
 */
public final class ThreadPriorities {
    private final PriorityPolicy policy;
    private final Affinity affinity;
    private final Map<String, PriorityResult> results = new ConcurrentHashMap<>();

    public ThreadPriorities(PriorityPolicy policy, Affinity affinity) {
        this.policy = policy;
        this.affinity = affinity;
    }

    /** On {@code thread}, the calling thread, as it starts. Never throws. */
    public void apply(Thread thread) {
        try {
            results.put(thread.getName(), policy.applyToCurrentThread(affinity));
        } catch (Throwable e) {
            RuntimeLog.internalError("applying the priority policy to " + thread.getName(), e);
        }
    }

    /**
     * On the timer thread, as it starts: the budget watch and the timers must not starve behind real-time workers
     * (a busy SCHED_FIFO worker never lets a normal thread onto its CPU), so under a real-time policy the timer
     * thread asks for the same class one priority higher; under any other policy it keeps what it has. Never throws.
     */
    public void applyAboveWorkers(Thread thread) {
        if (!(policy instanceof PriorityPolicy.Realtime realtime)) {
            return;
        }
        try {
            int highest = affinity.priorityRange(realtime.schedClass()).map(PriorityRange::max).orElse(99); // Linux's documented 1..99
            int above = Math.min(realtime.priority() + 1, highest);
            if (above == realtime.priority()) {
                RuntimeLog.logSafely(System.Logger.Level.WARNING, "the workers run at " + realtime.schedClass() + " priority "
                        + above + ", the highest there is: the timer thread (turn budgets, timers) can only equal them, and"
                        + " busy workers may starve it; give the workers a priority below " + highest);
            }
            PriorityResult result = PriorityPolicy.realtime(realtime.schedClass(), above, realtime.fallbackNice())
                    .applyToCurrentThread(affinity);
            if (!result.isApplied() && above != realtime.priority()) {
                // An RLIMIT_RTPRIO of exactly the workers' priority allows theirs and refuses one above: equal them.
                result = realtime.applyToCurrentThread(affinity);
            }
            results.put(thread.getName(), result);
        } catch (Throwable e) {
            RuntimeLog.internalError("applying the timer thread's priority", e);
        }
    }

    public Map<String, PriorityResult> results() {
        return Map.copyOf(results);
    }
}
