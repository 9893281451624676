package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.Capabilities;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.ThreadPlan;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Says once, as HOSTED starts, that the affinity, placement or priority it was asked for cannot apply here, and why.
 *
 * <p>Each thread records its own fallback ({@code RuntimeMetrics.affinityResults()}, {@code priorityResults()}), and
 * nothing fails: a runtime without native access or without its library still runs, unpinned. That is right for the
 * threads and wrong for the operator, who asked for a policy and would otherwise learn of its absence only by reading
 * metrics. The reason names the fix: the {@code --enable-native-access} flag to add when native access was refused,
 * what the loader tried when the library is missing, the platform's answer when it lacks hard affinity.
 */
public final class UnappliedPolicies {
    private UnappliedPolicies() {
    }

    /** Logs one WARNING if anything asked for cannot apply through {@code affinity}; nothing if all can or none is asked. */
    public static void warnIfAny(AffinityPolicy affinityPolicy, PriorityPolicy priority, List<ThreadPlan> plans, Affinity affinity) {
        List<String> pinning = new ArrayList<>();
        if (affinityPolicy != AffinityPolicy.NONE) {
            pinning.add("affinity policy " + affinityPolicy);
        }
        if (plans.stream().anyMatch(plan -> !plan.cpus().isEmpty())) {
            pinning.add("placement's CPUs");
        }
        List<String> asked = new ArrayList<>(pinning);
        if (!(priority instanceof PriorityPolicy.None)) {
            asked.add("priority policy " + priority);
        }
        if (asked.isEmpty()) {
            return;
        }
        if (!affinity.available()) {
            RuntimeLog.logSafely(System.Logger.Level.WARNING, "the " + String.join(" and the ", asked)
                    + " cannot be applied: the threads run as the JVM started them, because "
                    + affinity.unavailableReason().orElse("liblanehost_affinity is not loaded"));
            return;
        }
        if (!pinning.isEmpty()) {
            Capabilities.Capability hard = affinity.capabilities().hardAffinity();
            if (!hard.available()) {
                RuntimeLog.logSafely(System.Logger.Level.WARNING, "the " + String.join(" and the ", pinning)
                        + " cannot be applied on " + affinity.capabilities().platform() + ": the threads run unpinned,"
                        + " because hard CPU affinity is unavailable (" + hard.reason() + ")");
            }
        }
    }
}
