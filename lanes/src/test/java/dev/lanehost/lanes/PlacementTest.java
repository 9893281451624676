package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.PlacementConfig;
import dev.lanehost.affinity.PlacementConfigException;
import dev.lanehost.lanes.scheduler.HostedScheduler;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A placement configuration's threads: exactly the thread budget, actors on their entries, keyed replicas. */
class PlacementTest {
    private static final long PATIENCE_SECONDS = 30;
    private static final PlacementConfig CONFIG = PlacementConfig.parse("""
            gateway: pinned;
            shards:  pinned(replicas = 3);
            metrics: cooperative(pool = io);
            ui:      cooperative(pool = io);
            misc:    cooperative(pool = main);
            """);

    @Test
    void theRuntimeStartsExactlyTheThreadsTheBudgetCounts() {
        assertEquals(5, CONFIG.threadBudget().total(), CONFIG.threadBudget().toString());
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).placement(CONFIG).build()) {
            List<String> names = ((HostedScheduler) runtime.scheduler).placedThreads().stream().map(Thread::getName).toList();
            assertEquals(List.of("lanehost-gateway", "lanehost-shards[0]", "lanehost-shards[1]", "lanehost-shards[2]",
                    "lanehost-pool:io"), names);
            assertEquals(CONFIG.threadBudget().total(), names.size());
            for (String name : names) {
                assertTrue(runtime.metrics().affinityResults().containsKey(name), "placing " + name + " was recorded");
            }
        }
    }

    @Test
    void actorsRunOnTheirEntrysThreadAndPooledEntriesShareTheirPoolsThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).placement(CONFIG).build()) {
            Map<String, String> ranOn = new ConcurrentHashMap<>();
            CountDownLatch ran = new CountDownLatch(3);
            for (String entry : List.of("gateway", "metrics", "ui")) {
                runtime.spawnPlaced(entry, entry, () -> (context, message) -> {
                    ranOn.put(entry, Thread.currentThread().getName());
                    ran.countDown();
                }).tell("go");
            }
            assertTrue(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals(Map.of("gateway", "lanehost-gateway", "metrics", "lanehost-pool:io", "ui", "lanehost-pool:io"), ranOn);
            IllegalArgumentException main = assertThrows(IllegalArgumentException.class,
                    () -> runtime.spawnPlaced("misc", "m", () -> (c, m) -> { }));
            assertTrue(main.getMessage().contains("'misc'") && main.getMessage().contains("main pool"), main.getMessage());
            assertThrows(IllegalArgumentException.class, () -> runtime.spawnPlaced("nowhere", "n", () -> (c, m) -> { }));
            assertEquals(3, runtime.resources().actors(), "nothing half-spawned");
        }
    }

    @Test
    void aKeyAlwaysReachesTheSameReplicaOnItsOwnThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).placement(CONFIG).build()) {
            Map<Object, Set<Integer>> replicasSeen = new ConcurrentHashMap<>();
            Map<Integer, String> threadOf = new ConcurrentHashMap<>();
            CountDownLatch delivered = new CountDownLatch(300);
            Replicas shards = runtime.spawnReplicas("shards", "shard", replica -> (context, key) -> {
                replicasSeen.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(replica);
                threadOf.put(replica, Thread.currentThread().getName());
                delivered.countDown();
            });
            assertEquals(3, shards.size());
            for (int round = 0; round < 3; round++) {
                for (int key = 0; key < 100; key++) {
                    assertTrue(shards.tell("user-" + key, "user-" + key));
                }
            }
            assertTrue(delivered.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            for (Map.Entry<Object, Set<Integer>> seen : replicasSeen.entrySet()) {
                assertEquals(Set.of(shards.indexFor(seen.getKey())), seen.getValue(), "key " + seen.getKey());
            }
            assertEquals(Map.of(0, "lanehost-shards[0]", 1, "lanehost-shards[1]", 2, "lanehost-shards[2]"), threadOf,
                    "every replica got keys, each on its own thread");
        }
    }

    @Test
    void closeEndsThePlacementThreadsAndBadConfigurationsAreRefusedAtBuild() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).placement(CONFIG).build();
        List<Thread> threads = ((HostedScheduler) runtime.scheduler).placedThreads();
        runtime.close();
        for (Thread thread : threads) {
            assertFalse(thread.isAlive(), thread.getName() + " ended with the runtime");
        }
        assertThrows(IllegalArgumentException.class, () -> ActorRuntime.builder(Profile.SINGLE_THREAD).placement(CONFIG).build());
        PlacementConfigException bad = assertThrows(PlacementConfigException.class, () -> ActorRuntime.builder(Profile.HOSTED)
                .placement(PlacementConfig.parse("a: pinned(replicas = 0);\nb: pinned(core = 4095);\n")).build());
        assertTrue(bad.getMessage().contains("'a'") && bad.getMessage().contains("'b'"), bad.getMessage());
        PlacementConfigException both = assertThrows(PlacementConfigException.class, () -> ActorRuntime.builder(Profile.HOSTED)
                .affinity(AffinityPolicy.fixed(4095)).placement(PlacementConfig.parse("a: pinned(replicas = 0);\n")).build());
        assertEquals(2, both.problems().size(), both.getMessage());
        assertTrue(both.problems().get(0).startsWith("affinity policy: ") && both.problems().get(0).contains("4095"), both.getMessage());
        assertTrue(both.problems().get(1).contains("'a'"), both.getMessage());
    }
}
