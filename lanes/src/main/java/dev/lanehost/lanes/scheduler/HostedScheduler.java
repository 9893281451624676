package dev.lanehost.lanes.scheduler;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.affinity.ThreadPlan;
import dev.lanehost.affinity.Topology;
import dev.lanehost.lanes.DrainResult;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.RunStatus;
import dev.lanehost.lanes.WorkerStats;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.HeldArenas;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.queue.Latches;
import dev.lanehost.lanes.scheduler.hosted.ThreadPriorities;
import dev.lanehost.lanes.scheduler.hosted.UnappliedPolicies;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import dev.lanehost.lanes.time.TimerQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The HOSTED profile's scheduler: a {@link WorkerPool} runs normal and pinned actors, and one timer thread
 * fires timers and runs the lanes' stall watch and the turn budgets' watch ({@link BudgetWatch}). Lanes are
 * their hosts' to drive. {@link #start()} returns once every worker has applied its affinity policy.
 */
public final class HostedScheduler extends Scheduler {
    /** close() waits this long for a turn in progress; a turn that never returns must not hang the host. */
    private static final long STOP_GRACE_MILLIS = 5_000;

    private final WorkerPool pool;
    /** Threads for blocking actors, started as they are needed. */
    private final BlockingPool blocking;
    /** The placement configuration's threads, or null. */
    private final PlacedThreads placed;
    private final ThreadPriorities priorities;
    /** Bounds the timer thread's sleep so lane stall checks run even with no timer armed. */
    private final long maxTimerWaitNanos;
    private final Thread timer = Thread.ofPlatform().name("lanehost-timer").daemon().unstarted(this::runTimers);
    private final CountDownLatch timerPrioritySet = new CountDownLatch(1);
    /** Arenas of halted actors a native call held at their teardown: the timer thread tries them now and then. */
    private final HeldArenas heldArenas;
    private final BudgetWatch budgets;
    /** The workers' and placement threads' run queues, each with its consumer and the turn it runs. */
    private final List<RunQueue> watched;
    private volatile boolean running = true;

    public HostedScheduler(TimerQueue timers, LaneRegistry lanes, RuntimeContext runtime, Duration laneStallThreshold,
                    int workers, IdleStrategy idleStrategy, int turnsPerRun, int blockingThreads, AffinityPolicy affinityPolicy,
                    Affinity affinity, Topology topology, List<ThreadPlan> plans, Map<String, String> pooledEntries,
                    PriorityPolicy priority) {
        super(timers, lanes, null);
        UnappliedPolicies.warnIfAny(affinityPolicy, priority, plans, affinity);
        this.priorities = new ThreadPriorities(priority, affinity);
        this.pool = new WorkerPool(workers, index -> "lanehost-worker-" + index, idleStrategy, turnsPerRun, affinityPolicy, affinity,
                topology, null, priorities);
        this.placed = plans.isEmpty() ? null : new PlacedThreads(plans, pooledEntries, idleStrategy, affinity, priorities);
        // Blocking threads take the policy's thread numbers after the workers'.
        this.blocking = new BlockingPool(blockingThreads, (thread, number) -> {
            pool.place(thread, workers + number);
            priorities.apply(thread);
        });
        List<RunQueue> watched = new ArrayList<>(pool.queues());
        if (placed != null) {
            watched.addAll(placed.queues());
        }
        this.watched = List.copyOf(watched);
        this.budgets = new BudgetWatch(runtime, this.watched, lanes);
        this.heldArenas = runtime.heldArenas();
        this.maxTimerWaitNanos = Math.max(1_000_000L, laneStallThreshold.toNanos() / 2);
    }

    @Override
    RunQueue normal() {
        return pool.worker(0).shared;
    }

    @Override
    public RunQueue spawnQueue() {
        return pool.spawnQueue();
    }

    @Override
    public RunQueue pinnedQueue(int worker) {
        return pool.worker(checkWorker(worker)).pinned;
    }

    @Override
    public RunQueue blockingQueue() {
        return blocking.queue();
    }

    @Override
    public RunQueue placedQueue(String entry, int replica) {
        return placed == null ? super.placedQueue(entry, replica) : placed.queue(entry, replica);
    }

    @Override
    public int replicas(String entry) {
        return placed == null ? super.replicas(entry) : placed.replicas(entry);
    }

    @Override
    public boolean runsPlaced(String entry, int replica, Thread thread) {
        return placed != null && placed.runs(entry, replica, thread);
    }

    @Override
    public boolean runsBlocking(Thread thread) {
        return blocking.isBlockingThread(thread);
    }

    @Override
    public int blockingThreads() {
        return blocking.threads();
    }

    /** The blocking threads alive now (tests check they end with the runtime). */
    public List<Thread> blockingThreadsForTest() {
        return blocking.liveThreads();
    }

    @Override
    public int currentWorker() {
        Worker current = pool.currentWorker();
        return current == null ? -1 : current.index;
    }

    @Override
    public int workers() {
        return pool.size();
    }

    @Override
    public WorkerPool pool() {
        return pool;
    }

    @Override
    public long normalQueued() {
        return pool.normalQueued();
    }

    @Override
    public boolean runsNormalQueue(Thread thread) {
        return pool.isWorker(thread);
    }

    @Override
    public boolean runsPinned(int worker, Thread thread) {
        return worker >= 0 && worker < pool.size() && pool.worker(worker) == thread;
    }

    @Override
    public DrainResult drain() {
        throw notDrainable();
    }

    @Override
    public RunStatus runUntilIdle(Duration budget, long maxTurns) {
        throw notDrainable();
    }

    private static IllegalStateException notDrainable() {
        return new IllegalStateException("drain() and runUntilIdle() are for SINGLE_THREAD and SIMULATED; "
                + "in HOSTED the worker threads run normal and pinned actors");
    }

    @Override
    public Map<String, AffinityResult> affinityResults() {
        if (placed == null) {
            return pool.affinityResults();
        }
        Map<String, AffinityResult> results = new LinkedHashMap<>(pool.affinityResults());
        results.putAll(placed.affinityResults());
        return Map.copyOf(results);
    }

    @Override
    public Map<String, PriorityResult> priorityResults() {
        return priorities.results();
    }

    /** The placement configuration's threads, in plan order (empty without one). */
    public List<Thread> placedThreads() {
        return placed == null ? List.of() : placed.threads();
    }

    @Override
    public List<WorkerStats> workerStats() {
        return pool.stats();
    }

    @Override
    public void start() {
        timer.start();
        Latches.awaitUninterruptibly(timerPrioritySet); // so the metrics have its priority as soon as the runtime is built
        pool.start();
        if (placed != null) {
            placed.start();
        }
    }

    @Override
    public void stop() {
        running = false;
        pool.stop();
        if (placed != null) {
            placed.stop();
        }
        blocking.stop();
        timers.wake();
        boolean interrupted = false;
        List<Thread> threads = new ArrayList<>(pool.threads());
        threads.addAll(blocking.liveThreads());
        threads.addAll(placedThreads());
        threads.add(timer);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MILLIS); // one grace for all threads
        for (Thread thread : threads) {
            if (thread == Thread.currentThread()) {
                continue; // close() from a turn or a timer callback: that thread ends by itself
            }
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (thread.isAlive()) {
                // A turn that never returns cannot be stopped in Java; the thread is a daemon.
                RuntimeLog.log(System.Logger.Level.WARNING, thread.getName() + " is still inside a turn" + turnOn(thread) + " "
                        + STOP_GRACE_MILLIS + " ms after close() began; close() leaves it running");
            }
        }
        pool.letKeptActorsGo(); // a worker that did not end keeps an actor's turn lock: the close tears that actor down
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** " of actor 7 'name' on normal" for the turn a worker or placement thread is running, or "" (a blocking thread's). */
    private String turnOn(Thread thread) {
        for (RunQueue queue : watched) {
            ActorCell cell = queue.consumer() == thread ? queue.running() : null;
            if (cell != null) {
                return " of " + cell.describe();
            }
        }
        return "";
    }

    @Override
    public void budgetInUse(BudgetLimits budget) {
        budgets.minFastNanos(budget.fastNanos);
    }

    @Override
    public void wakeBudgetWatch() {
        timers.wake();
    }

    private void runTimers() {
        try {
            priorities.applyAboveWorkers(Thread.currentThread()); // real-time workers must not starve the budget watch
        } finally {
            timerPrioritySet.countDown(); // start() waits for this, whatever happened
        }
        timers.waitOn(Thread.currentThread()); // before the first look at running: stop() then reliably wakes it
        // Look at once: until its first look the budget watch has not announced that it sleeps, so no runner wakes
        // it, and a first wait of maxTimerWaitNanos would leave every turn of the runtime's first half second unwatched.
        long wait = 0;
        while (running) {
            timers.awaitDue(System::nanoTime, wait);
            timers.fireDue(System.nanoTime());
            lanes.observeAll(System.nanoTime());
            wait = budgets.observe(System.nanoTime(), maxTimerWaitNanos);
            heldArenas.retry();
            pool.rescueStuckWork();
        }
    }
}
