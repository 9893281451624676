package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.PlacementConfig;
import dev.lanehost.affinity.PlacementConfigException;
import dev.lanehost.affinity.ThreadPlan;
import dev.lanehost.affinity.Topology;
import dev.lanehost.affinity.TopologyDeclaration;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * HOSTED's affinity policy and placement configuration held against the machine as the runtime is built, before any
 * thread starts: every problem at once, then the threads the placement starts.
 */
public final class PlacementCheck {
    private PlacementCheck() {
    }

    /**
     * Validates the affinity policy and the placement (null: none) against {@code topology}, and resolves the
     * placement's threads. A declaration written for another machine still starts here: what does not match is
     * logged once, as a warning.
     *
     * @return the threads the placement starts (none without a placement)
     * @throws IllegalArgumentException if the affinity policy names a CPU the topology lacks or forbids
     * @throws PlacementConfigException if the placement cannot be applied (with the policy's problem, if any, first)
     */
    public static List<ThreadPlan> checkAndResolve(AffinityPolicy policy, PlacementConfig placement,
                                                   TopologyDeclaration declared, Topology topology) {
        validate(policy, placement, declared, topology);
        if (placement == null) {
            return List.of();
        }
        List<ThreadPlan> plans = placement.resolve(declared);
        for (String warning : declared == TopologyDeclaration.none() ? List.<String>of() : declared.checkAgainst(topology)) {
            RuntimeLog.logSafely(System.Logger.Level.WARNING, "placement: " + warning);
        }
        return plans;
    }

    /** Pooled entries by name to their pool's name (entries of the main pool are left out: they have no thread). */
    public static Map<String, String> pooledEntries(PlacementConfig placement) {
        Map<String, String> pools = new HashMap<>();
        if (placement != null) {
            for (PlacementConfig.Entry entry : placement.entries()) {
                if (entry instanceof PlacementConfig.Pooled pooled && !pooled.pool().equals(PlacementConfig.MAIN_POOL)) {
                    pools.put(pooled.name(), pooled.pool());
                }
            }
        }
        return pools;
    }

    /**
     * The affinity policy's problem (an unknown or disallowed CPU) and the placement's, reported together: alone, each
     * as it is thrown; both, as one {@link PlacementConfigException} listing the policy's first.
     */
    private static void validate(AffinityPolicy policy, PlacementConfig placement, TopologyDeclaration declared, Topology topology) {
        IllegalArgumentException policyProblem = null;
        try {
            policy.validate(topology);
        } catch (IllegalArgumentException e) {
            policyProblem = e;
        }
        if (placement != null) {
            try {
                placement.validate(declared, topology);
            } catch (PlacementConfigException e) {
                if (policyProblem == null) {
                    throw e;
                }
                List<String> problems = new ArrayList<>();
                problems.add("affinity policy: " + policyProblem.getMessage());
                problems.addAll(e.problems());
                throw new PlacementConfigException("invalid affinity policy and placement", problems);
            }
        }
        if (policyProblem != null) {
            throw policyProblem;
        }
    }
}
