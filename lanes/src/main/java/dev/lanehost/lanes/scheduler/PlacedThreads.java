package dev.lanehost.lanes.scheduler;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.ThreadPlan;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.scheduler.hosted.ThreadPriorities;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The threads a placement configuration asks for ({@link dev.lanehost.lanes.RuntimeBuilder#placement}): one per pinned entry,
 * one per replica, one per cooperative pool, exactly as its thread budget counts them. Each is a worker of
 * its own that never steals and is never stolen from; an actor spawned on an entry
 * ({@link dev.lanehost.lanes.ActorRuntime#spawnPlaced}, {@link dev.lanehost.lanes.ActorRuntime#spawnReplicas}) is pinned to its thread for life.
 * Each thread applies its planned CPUs to itself when it starts and records the result.
 */
public final class PlacedThreads {
    /** Entry or pool name to its threads' pools, replica order (one pool of one worker per thread). */
    private final Map<String, List<WorkerPool>> byEntry = new LinkedHashMap<>();
    /** A pooled entry's name to its pool's name. */
    private final Map<String, String> poolOf;
    private final List<WorkerPool> all = new ArrayList<>();

    PlacedThreads(List<ThreadPlan> plans, Map<String, String> poolOf, IdleStrategy idleStrategy, Affinity affinity,
                  ThreadPriorities priorities) {
        this.poolOf = Map.copyOf(poolOf);
        for (ThreadPlan plan : plans) {
            WorkerPool[] self = new WorkerPool[1];
            self[0] = new WorkerPool(1, index -> "lanehost-" + plan.thread(), idleStrategy, 1, AffinityPolicy.NONE, affinity,
                    null, (thread, index) -> self[0].record(thread, () -> pin(affinity, plan)), priorities);
            byEntry.computeIfAbsent(plan.entry(), entry -> new ArrayList<>()).add(self[0]);
            all.add(self[0]);
        }
    }

    private static AffinityResult pin(Affinity affinity, ThreadPlan plan) {
        return plan.cpus().isEmpty() ? AffinityPolicy.NONE.applyToCurrentThread(0, null, affinity) : affinity.pinCurrentThread(plan.cpus());
    }

    /**
     * The run queue of replica {@code replica} of {@code entry} (a pooled entry: its pool's thread).
     *
     * @throws IllegalArgumentException naming the entry, or the replica range
     */
    RunQueue queue(String entry, int replica) {
        return thread(entry, replica).pinned;
    }

    Worker thread(String entry, int replica) {
        List<WorkerPool> threads = threads(entry);
        if (replica < 0 || replica >= threads.size()) {
            throw new IllegalArgumentException("entry '" + entry + "' has " + threads.size() + " replica(s), numbered 0 to "
                    + (threads.size() - 1) + "; no replica " + replica);
        }
        return threads.get(replica).worker(0);
    }

    /** Threads of an entry: its replicas, or its pool's one thread. */
    int replicas(String entry) {
        return threads(entry).size();
    }

    private List<WorkerPool> threads(String entry) {
        List<WorkerPool> threads = byEntry.get(poolOf.getOrDefault(entry, entry));
        if (threads == null) {
            throw new IllegalArgumentException("no placement entry '" + entry + "' starts a thread (entries with threads: "
                    + names() + "; entries of the main pool run on normal workers)");
        }
        return threads;
    }

    private List<String> names() {
        List<String> names = new ArrayList<>(byEntry.keySet());
        poolOf.forEach((entry, pool) -> {
            if (byEntry.containsKey(pool)) {
                names.add(entry);
            }
        });
        return names;
    }

    boolean runs(String entry, int replica, Thread thread) {
        return thread(entry, replica) == thread;
    }

    void start() {
        for (WorkerPool pool : all) {
            pool.start();
        }
    }

    public void stop() {
        for (WorkerPool pool : all) {
            pool.stop();
        }
    }

    List<Thread> threads() {
        List<Thread> threads = new ArrayList<>();
        for (WorkerPool pool : all) {
            threads.addAll(pool.threads());
        }
        return threads;
    }

    List<RunQueue> queues() {
        List<RunQueue> queues = new ArrayList<>();
        for (WorkerPool pool : all) {
            queues.addAll(pool.queues());
        }
        return queues;
    }

    Map<String, AffinityResult> affinityResults() {
        Map<String, AffinityResult> results = new LinkedHashMap<>();
        for (WorkerPool pool : all) {
            results.putAll(pool.affinityResults());
        }
        return results;
    }
}
