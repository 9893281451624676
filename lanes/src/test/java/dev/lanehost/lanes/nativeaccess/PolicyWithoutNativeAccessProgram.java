package dev.lanehost.lanes.nativeaccess;

import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;

/**
 * Run by {@code NativeAccessWarningTest} in a child JVM that denies native access: a HOSTED runtime asked to pin its
 * worker. Its package is in no module, so the child can load it from the class path beside the modules it uses.
 */
public final class PolicyWithoutNativeAccessProgram {
    private PolicyWithoutNativeAccessProgram() {
    }

    public static void main(String[] args) {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).affinity(AffinityPolicy.BEST_EFFORT).build()) {
            System.out.println("worker-0: " + runtime.metrics().affinityResults().get("lanehost-worker-0").outcome());
        }
    }
}
