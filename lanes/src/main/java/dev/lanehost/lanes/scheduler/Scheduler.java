package dev.lanehost.lanes.scheduler;

import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.lanes.DrainResult;
import dev.lanehost.lanes.RunStatus;
import dev.lanehost.lanes.WorkerStats;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.queue.WorkFlag;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import dev.lanehost.lanes.time.TimerQueue;
import dev.lanehost.lanes.time.VirtualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The scheduling seam: how one profile runs the normal placement's turns, fires timers and keeps time.
 * The profiles' schedulers sit side by side: {@link HostedScheduler} (a worker and a timer thread),
 * {@link DrainScheduler} (the host's own thread, in {@code drain()}), {@link SimulatedScheduler} (the
 * same, with a seeded choice among every queue and a virtual clock). Lanes plug in through
 * {@link #newLaneQueue} and {@link #laneRegistered}; their host-driven loop is {@link ExecutionLane#drive(int, DriveCounts)}.
 *
 * <p>Everything a scheduler runs, it runs by polling a {@link RunQueue} and calling
 * {@code ActorCell.runOnce}: the run-queue code is the same for every profile.
 */
public abstract sealed class Scheduler permits HostedScheduler, DrainScheduler {
    /** The normal placement's queue name, in schedules and snapshots. */
    static final String NORMAL_QUEUE = "normal";

    final TimerQueue timers;
    final LaneRegistry lanes;
    /** SIMULATED only; null means the wall clock. */
    private final VirtualClock clock;

    Scheduler(TimerQueue timers, LaneRegistry lanes, VirtualClock clock) {
        this.timers = timers;
        this.lanes = lanes;
        this.clock = clock;
    }

    /** The runtime clock: {@link System#nanoTime()}, or the virtual clock. Any thread. */
    public final long nanoTime() {
        return clock == null ? System.nanoTime() : clock.now();
    }

    /** The simulated clock, or null. */
    final VirtualClock virtualClock() {
        return clock;
    }

    /** The normal placement's run queue (HOSTED: the first worker's shared queue). */
    abstract RunQueue normal();

    /** The run queue a new normal actor starts on. */
    public RunQueue spawnQueue() {
        return normal();
    }

    /**
     * The run queue of actors pinned to worker {@code worker}. Profiles without workers have one, the thread
     * that drains: worker 0, whose pinned actors share the normal queue.
     *
     * @throws IllegalArgumentException naming the range if there is no such worker
     */
    public RunQueue pinnedQueue(int worker) {
        checkWorker(worker);
        return normal();
    }

    /**
     * The run queue of blocking actors.
     *
     * @throws IllegalStateException in profiles without threads of their own: a blocking turn would block the
     *         host's drain
     */
    public RunQueue blockingQueue() {
        throw new IllegalStateException("blocking actors run on HOSTED's blocking threads; in a profile whose turns run"
                + " on the host's drain() a blocking turn would block the host");
    }

    /**
     * The run queue of a placement entry's replica.
     *
     * @throws IllegalArgumentException naming the entry if no placement thread serves it
     */
    public RunQueue placedQueue(String entry, int replica) {
        throw new IllegalArgumentException("no placement entry '" + entry + "': this runtime has no placement configuration");
    }

    /** Threads of a placement entry (its replicas, or its pool's one thread). */
    public int replicas(String entry) {
        throw new IllegalArgumentException("no placement entry '" + entry + "': this runtime has no placement configuration");
    }

    /** True if {@code thread} runs replica {@code replica} of {@code entry}. */
    public boolean runsPlaced(String entry, int replica, Thread thread) {
        return false;
    }

    /** True if {@code thread} is one of the blocking threads. */
    public boolean runsBlocking(Thread thread) {
        return false;
    }

    /** Blocking threads alive now. */
    public int blockingThreads() {
        return 0;
    }

    /** The calling thread's worker number, or -1 if it is not a worker (profiles without workers: -1). */
    public int currentWorker() {
        return -1;
    }

    /** How many workers run normal and pinned actors (profiles without workers: 1, the draining thread). */
    public int workers() {
        return 1;
    }

    /** HOSTED's pool (normal actors move among its workers), or null. */
    public WorkerPool pool() {
        return null;
    }

    /** Normal actors queued now. */
    public long normalQueued() {
        return normal().depth();
    }

    final int checkWorker(int worker) {
        if (worker < 0 || worker >= workers()) {
            throw new IllegalArgumentException("no worker " + worker + ": this runtime has " + workers()
                    + " worker(s), numbered 0 to " + (workers() - 1));
        }
        return worker;
    }

    /** True if {@code thread} runs the actors pinned to worker {@code worker}. */
    public boolean runsPinned(int worker, Thread thread) {
        return worker == 0 && runsNormalQueue(thread);
    }

    /** What applying the priority policy did to each of the profile's threads (profiles without threads: none). */
    public Map<String, PriorityResult> priorityResults() {
        return Map.of();
    }

    /** Each worker's counters (profiles without workers: none). */
    public List<WorkerStats> workerStats() {
        return List.of();
    }

    /** A run queue for a new lane, scheduled the way this profile schedules; offers raise {@code work}, the lane. */
    public RunQueue newLaneQueue(String name, WorkFlag work) {
        return new RunQueue(name, null, null, work);
    }

    /** A lane was registered (after its name proved unique). */
    public void laneRegistered(Lane lane) {
    }

    /** True if {@code thread} runs the normal placement's turns now. */
    public abstract boolean runsNormalQueue(Thread thread);

    /** {@link dev.lanehost.lanes.ActorRuntime#drain()}. */
    public abstract DrainResult drain();

    /** {@link dev.lanehost.lanes.ActorRuntime#runUntilIdle(Duration, long)}, once the budget is checked and the runtime is open. */
    public abstract RunStatus runUntilIdle(Duration budget, long maxTurns);

    /** Starts the profile's threads, if it has any; returns once they can be observed. */
    public void start() {
    }

    /** Close: stops the profile's threads, if it has any. */
    public void stop() {
    }

    /** An actor with this turn budget was spawned (the HOSTED budget watch adapts how often it looks). */
    public void budgetInUse(BudgetLimits budget) {
    }

    /** A turn started while the HOSTED budget watch slept; other profiles have no watch. */
    public void wakeBudgetWatch() {
    }

    /** SIMULATED: an explicit poll site's virtual time passes. */
    public void spendPollTime() {
    }

    /** What applying the affinity policy did to each of the profile's threads. */
    public Map<String, AffinityResult> affinityResults() {
        return Map.of();
    }
}
