package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.CpuSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** The HOSTED runtime applies its affinity policy to each worker and records what happened. */
class AffinityTest {

    @Test
    void aFixedPolicyPinsTheWorkerAndIsRecorded() throws Exception {
        Affinity affinity = Affinity.system();
        int cpu = affinity.allowedCpus().orElseThrow().stream().findFirst().orElseThrow();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).affinity(AffinityPolicy.fixed(cpu)).build()) {
            AffinityResult result = runtime.metrics().affinityResults().get("lanehost-worker-0");
            assertEquals(AffinityResult.Outcome.APPLIED, result.outcome(), result.toString());
            assertEquals(1, runtime.metrics().affinitySuccesses());
            assertEquals(0, runtime.metrics().affinityFailures());
            // The kernel agrees: the worker's allowed list is that one CPU.
            long tid = workerTid(runtime);
            String status = Files.readString(Path.of("/proc/self/task/" + tid + "/status"));
            assertTrue(status.contains("Cpus_allowed_list:\t" + cpu + "\n"), status);
        }
    }

    @Test
    void withoutTheLibraryThePolicyFallsBackAndSaysWhy() {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1)
                .affinity(AffinityPolicy.BEST_EFFORT, Affinity.unavailable("test: no native library")).build()) {
            AffinityResult result = runtime.metrics().affinityResults().get("lanehost-worker-0");
            assertEquals(AffinityResult.Outcome.FELL_BACK, result.outcome());
            assertTrue(result.reason().contains("test: no native library"), result.reason());
            assertEquals(1, runtime.metrics().affinityFailures());
            // Said once at start too, not left to the metrics: the operator asked for pinning.
            assertEquals(1, log.matching(Level.WARNING, "affinity policy BEST_EFFORT cannot be applied",
                    "test: no native library").size());
        }
    }

    @Test
    void withoutAnyPolicyNothingIsSaidOfTheMissingLibrary() {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1)
                .affinity(AffinityPolicy.NONE, Affinity.unavailable("test: no native library")).build()) {
            assertEquals(List.of(), log.matching(Level.WARNING, "cannot be applied"));
        }
    }

    @Test
    void anUnknownCpuIsRefusedByNameBeforeAnyThreadStarts() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> ActorRuntime.builder(Profile.HOSTED).affinity(AffinityPolicy.fixed(4095)).build());
        assertTrue(thrown.getMessage().contains("4095"), thrown.getMessage());
    }

    @Test
    void aDeclaredTopologyThatDoesNotMatchTheMachineStartsAndSaysSo() {
        // A core this process may use, declared on node 7, which no machine running this test has (a config written
        // for another box).
        int core = Affinity.system().topology().allowed().get(0);
        var declared = dev.lanehost.affinity.TopologyDeclaration.builder()
                .node(7, node -> node.l3("elsewhere", core + ".." + (core + 1))).build();
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED)
                     .placement(dev.lanehost.affinity.PlacementConfig.parse("probe: pinned(node = 7)"), declared).build()) {
            assertEquals(Profile.HOSTED, runtime.profile(), "it starts");
            assertTrue(!log.matching(java.util.logging.Level.WARNING, "placement: ").isEmpty(), "the mismatch is logged at build");
        }
    }

    @Test
    void noPolicyMeansNotRequestedAndTheResultSaysWhereTheThreadRunsAllTheSame() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            AffinityResult result = runtime.metrics().affinityResults().get("lanehost-worker-0");
            assertEquals(AffinityResult.Outcome.NOT_REQUESTED, result.outcome());
            assertEquals(0, runtime.metrics().affinitySuccesses() + runtime.metrics().affinityFailures());
            var mask = new java.util.concurrent.CompletableFuture<java.util.Optional<CpuSet>>();
            runtime.spawnPinned(0, "mask", () -> (context, message) -> mask.complete(Affinity.system().currentThreadMask())).tell("read");
            java.util.Optional<CpuSet> actual = mask.get(30, java.util.concurrent.TimeUnit.SECONDS);
            // The mask it inherited (here the test thread's), not "empty": a thread started by a pinned thread runs where it does.
            assertEquals(actual.orElse(CpuSet.empty()), result.applied(), result.toString());
        }
    }

    private static long workerTid(ActorRuntime runtime) throws Exception {
        var tid = new java.util.concurrent.CompletableFuture<Long>();
        ActorRef probe = runtime.spawn("tid", () -> (context, message) ->
                tid.complete(Affinity.system().currentThreadId().orElseThrow()));
        probe.tell("tid?");
        return tid.get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
}
