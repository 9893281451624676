package dev.lanehost.lanes;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.Topology;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The HOSTED profile's scheduler: one worker thread runs the normal queue, one timer thread fires timers
 * and runs the lanes' stall watch and the turn budgets' watch ({@link BudgetWatch}). Lanes are their hosts'
 * to drive.
 *
 * <h2>Worker park protocol</h2>
 * <ol>
 *   <li>The worker polls the normal queue; with nothing there it spins {@link #WORKER_SPINS_BEFORE_PARK}
 *       times before parking.</li>
 *   <li>To park it announces {@code workerIdle}, re-checks the queue, and parks only if it is still
 *       empty.</li>
 *   <li>A sender offers first, then reads {@code workerIdle} and unparks the worker if it is set. Both
 *       sides write then read volatiles, so one of them sees the other: no wake-up is lost.</li>
 * </ol>
 * The worker applies the affinity policy to itself before its first turn; {@link #start()} returns once
 * that is recorded.
 */
final class HostedScheduler extends Scheduler {
    /**
     * Polls before the worker parks: about 50 µs of PAUSEs, longer than a futex wake-up on a VM (5-10 µs)
     * and short enough that an idle runtime costs nothing measurable; a reply to a caller who is still
     * spinning then never waits on a wake-up.
     */
    private static final int WORKER_SPINS_BEFORE_PARK = 2_000;
    /** close() waits this long for a turn in progress; a turn that never returns must not hang the host. */
    private static final long STOP_GRACE_MILLIS = 5_000;

    private final RunQueue normal = new RunQueue(NORMAL_QUEUE, null, this::wakeWorker, new WorkFlag());
    /** Bounds the timer thread's sleep so lane stall checks run even with no timer armed. */
    private final long maxTimerWaitNanos;
    private final Thread worker = Thread.ofPlatform().name("lanehost-worker-0").daemon().unstarted(this::runWorker);
    private final Thread timer = Thread.ofPlatform().name("lanehost-timer").daemon().unstarted(this::runTimers);
    private final AffinityPolicy affinityPolicy;
    private final Affinity affinity;
    private final Topology topology;
    /** Thread name to what applying the affinity policy to it did; written once per thread at its start. */
    private final Map<String, AffinityResult> affinityResults = new ConcurrentHashMap<>();
    /** start() returns once the worker has applied its affinity, so results are there to read. */
    private final CountDownLatch placed = new CountDownLatch(1);
    private final BudgetWatch budgets;
    private volatile boolean workerIdle;
    private volatile boolean running = true;

    HostedScheduler(TimerQueue timers, LaneRegistry lanes, RuntimeContext runtime, Duration laneStallThreshold,
                    AffinityPolicy affinityPolicy, Affinity affinity, Topology topology) {
        super(timers, lanes, null);
        this.budgets = new BudgetWatch(runtime, normal, lanes);
        this.maxTimerWaitNanos = Math.max(1_000_000L, laneStallThreshold.toNanos() / 2);
        this.affinityPolicy = affinityPolicy;
        this.affinity = affinity;
        this.topology = topology;
    }

    @Override
    RunQueue normal() {
        return normal;
    }

    @Override
    boolean runsNormalQueue(Thread thread) {
        return worker == thread;
    }

    @Override
    DrainResult drain() {
        throw notDrainable();
    }

    @Override
    RunStatus runUntilIdle(Duration budget, long maxTurns) {
        throw notDrainable();
    }

    private static IllegalStateException notDrainable() {
        return new IllegalStateException("drain() and runUntilIdle() are for SINGLE_THREAD and SIMULATED; "
                + "in HOSTED the worker thread runs the normal queue");
    }

    @Override
    Map<String, AffinityResult> affinityResults() {
        return Map.copyOf(affinityResults);
    }

    @Override
    void start() {
        worker.start();
        timer.start();
        boolean interrupted = false;
        while (true) {
            try {
                placed.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    void stop() {
        running = false;
        LockSupport.unpark(worker);
        timers.wake();
        boolean interrupted = false;
        for (Thread thread : List.of(worker, timer)) {
            if (thread == Thread.currentThread()) {
                continue; // close() from a turn or a timer callback: that thread ends by itself
            }
            try {
                thread.join(STOP_GRACE_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (thread.isAlive()) {
                // A turn that never returns cannot be stopped in Java; the thread is a daemon.
                RuntimeLog.log(System.Logger.Level.WARNING, thread.getName() + " is still inside a turn after "
                        + STOP_GRACE_MILLIS + " ms; close() leaves it running");
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void wakeWorker() {
        if (workerIdle) {
            LockSupport.unpark(worker);
        }
    }

    private void runWorker() {
        try {
            affinityResults.put(worker.getName(), affinityPolicy.applyToCurrentThread(0, topology, affinity));
        } catch (Throwable e) {
            RuntimeLog.internalError("applying the affinity policy to " + worker.getName(), e);
        } finally {
            placed.countDown();
        }
        int idleSpins = 0;
        while (running) {
            ActorCell cell = normal.poll();
            if (cell != null) {
                cell.runOnce();
                idleSpins = 0;
                continue;
            }
            if (idleSpins++ < WORKER_SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
                continue;
            }
            idleSpins = 0;
            // Idle protocol: announce, re-check (a sender's offer-then-check sees one or the other), park.
            workerIdle = true;
            if (normal.depth() == 0 && running) {
                LockSupport.park(this);
            }
            workerIdle = false;
        }
    }

    @Override
    void budgetInUse(BudgetLimits budget) {
        budgets.minFastNanos(budget.fastNanos);
    }

    @Override
    void wakeBudgetWatch() {
        timers.wake();
    }

    private void runTimers() {
        timers.waitOn(Thread.currentThread()); // before the first look at running: stop() then reliably wakes it
        long wait = maxTimerWaitNanos;
        while (running) {
            timers.awaitDue(System::nanoTime, wait);
            timers.fireDue(System.nanoTime());
            lanes.observeAll(System.nanoTime());
            wait = budgets.observe(System.nanoTime(), maxTimerWaitNanos);
        }
    }
}
