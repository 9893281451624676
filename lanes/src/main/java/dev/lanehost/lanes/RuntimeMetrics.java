package dev.lanehost.lanes;

import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.runtime.ActorRegistry;
import dev.lanehost.lanes.runtime.LiveRuntime;
import dev.lanehost.lanes.scheduler.Scheduler;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A runtime's counters, for a metrics system to poll: each call reads racy-but-safe scalars (or, for the
 * lane stall counts, runs each lane's stall watch) and never waits on a turn. From
 * {@link ActorRuntime#metrics()}; per-actor and per-lane rows are in {@link ActorRuntime#snapshot()}.
 */
public final class RuntimeMetrics {
    private final LiveRuntime context;
    private final Scheduler scheduler;
    private final LaneRegistry lanes;
    private final ActorRegistry actors;
    private final LongAdder blockingActors;

    RuntimeMetrics(LiveRuntime context, Scheduler scheduler, LaneRegistry lanes, ActorRegistry actors, LongAdder blockingActors) {
        this.context = context;
        this.scheduler = scheduler;
        this.lanes = lanes;
        this.actors = actors;
        this.blockingActors = blockingActors;
    }

    /** Lanes with queued work that nobody has driven for the stall threshold. */
    public int stalledLanes() {
        return lanes.stalledCount(scheduler.nanoTime());
    }

    /** Times a lane was first seen stalled (one per stall episode). */
    public long laneStallReports() {
        return lanes.stallReports().get();
    }

    /** Messages and tasks refused because a mailbox or a lane was full ({@link Delivery#FULL}). */
    public long refusedLetters() {
        return context.refusedLetters.sum();
    }

    /**
     * Messages that were accepted (a {@code tell} that returned true, an {@code offer} that answered
     * {@link Delivery#QUEUED}) and then dropped unhandled: an actor's halt drops the letters still in its mailbox, and a
     * close halts every actor. A task dropped so gets {@link TurnTask#abandoned()} instead; a message has no hook, so it
     * is counted here. To lose none at a close, stop sending and wait until the actors' mailboxes are empty first.
     */
    public long droppedMessages() {
        return context.droppedMessages.sum();
    }

    /**
     * Normal actors queued now (HOSTED: on every worker); 0 once the runtime is closed, when nothing will run again
     * (a close queues every actor for its teardown, and the stopped workers' queues keep those entries).
     */
    public long normalQueued() {
        return context.isClosed() ? 0 : scheduler.normalQueued();
    }

    /** Threads that run normal and pinned actors: HOSTED's workers; 1 (the draining thread) otherwise. */
    public int workerCount() {
        return scheduler.workers();
    }

    /** Blocking threads alive now (HOSTED; they start on demand and end after a minute idle). */
    public int blockingThreads() {
        return scheduler.blockingThreads();
    }

    /** Actors spawned with {@link ActorRuntime#spawnBlocked} and not yet torn down. */
    public long blockingActors() {
        return blockingActors.sum();
    }

    /** Each HOSTED worker's queues, turns and steals; empty in the other profiles. Queues read 0 once the runtime is closed. */
    public List<WorkerStats> workers() {
        List<WorkerStats> stats = scheduler.workerStats();
        if (!context.isClosed()) {
            return stats;
        }
        return stats.stream().map(w -> new WorkerStats(w.index(), w.thread(), 0, 0, w.turns(), w.stealAttempts(), w.steals()))
                .toList();
    }

    /**
     * What applying the affinity policy did to each runtime thread (HOSTED: the worker), by thread name:
     * applied, fell back (and why), or not requested. Recorded when the thread starts, before it runs a turn.
     */
    public Map<String, AffinityResult> affinityResults() {
        return scheduler.affinityResults();
    }

    /**
     * What applying the priority policy ({@link RuntimeBuilder#priority}) did to each runtime thread, by name: the
     * class, priority and nice read back from the kernel, and why it fell back. Recorded as each thread starts.
     */
    public Map<String, PriorityResult> priorityResults() {
        return scheduler.priorityResults();
    }

    /** Actors alive now: spawned and not yet torn down. */
    public long liveActors() {
        return actors.count();
    }

    /**
     * Actors torn down so far whose exit reason is of this kind: {@code halts(ExitReason.Killed.class)}.
     *
     * @throws IllegalArgumentException if {@code kind} is not one of ExitReason's records
     */
    public long halts(Class<? extends ExitReason> kind) {
        return context.halts.count(Objects.requireNonNull(kind, "exit reason kind"));
    }

    /** Actors torn down so far, by their exit reason's kind (Normal, Failed, Killed, Budget, Reaped, Shutdown, Linked). */
    public Map<String, Long> haltsByReason() {
        return context.halts.byKind();
    }

    /**
     * Faulted actors their supervisors restarted ({@link Remedy#RESTART}: a successor was spawned). Each restart's
     * halt is also counted in {@link #haltsByReason()} under the fault's kind.
     */
    public long restarts() {
        return context.restarts.sum();
    }

    /** Faulted actors their supervisors hydrated ({@link Remedy#HYDRATE}: same actor, fresh state); no halt is counted. */
    public long hydrations() {
        return context.hydrations.sum();
    }

    /** Runtime threads whose affinity policy was applied. */
    public long affinitySuccesses() {
        return affinityResults().values().stream().filter(AffinityResult::isApplied).count();
    }

    /** Runtime threads whose affinity policy asked for CPUs but fell back. */
    public long affinityFailures() {
        return affinityResults().values().stream().filter(r -> r.outcome() == AffinityResult.Outcome.FELL_BACK).count();
    }
}
