package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.DrainResult;
import dev.lanehost.lanes.RunStatus;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.queue.WorkFlag;
import dev.lanehost.lanes.time.TimerQueue;
import dev.lanehost.lanes.time.VirtualClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The SINGLE_THREAD profile's scheduler: no threads of its own; the host lends one to {@code drain()} and
 * {@code runUntilIdle()}, which fire due timers inline and run the normal queue. One draining thread at
 * a time. {@link SimulatedScheduler} runs the same loops with a seeded pick and virtual time.
 *
 * <h2>Run protocol</h2>
 * <ol>
 *   <li>A pass fires due timers, then runs one turn for each actor runnable when it began: work those
 *       turns create waits for the next pass, so a self-messaging actor cannot monopolise one call.</li>
 *   <li>{@code runUntilIdle} loops passes until nothing is runnable or a budget (wall-clock time here,
 *       turns) is spent; both budgets are checked between turns.</li>
 *   <li>A poll that finds a sender mid-queue is retried a bounded number of passes
 *       ({@link #SPURIOUS_EMPTY_PASSES}), then the queue is taken as idle.</li>
 * </ol>
 */
public sealed class DrainScheduler extends Scheduler permits SimulatedScheduler {
    /**
     * Passes that find a sender mid-queue (counted, nothing pollable) before the queue is taken as idle:
     * far longer than an offer's two steps take, short enough that a preempted sender costs a pass, not a hang.
     */
    private static final int SPURIOUS_EMPTY_PASSES = 1000;

    private final RunQueue normal;
    private final BooleanSupplier closed;
    private final AtomicReference<Thread> drainer = new AtomicReference<>();

    public DrainScheduler(TimerQueue timers, LaneRegistry lanes, BooleanSupplier closed) {
        this(timers, lanes, closed, null, null);
    }

    public DrainScheduler(TimerQueue timers, LaneRegistry lanes, BooleanSupplier closed, VirtualClock clock,
                   RunQueue.SchedulePolicy policy) {
        super(timers, lanes, clock);
        this.closed = closed;
        this.normal = new RunQueue(NORMAL_QUEUE, policy, null, new WorkFlag());
    }

    @Override
    final RunQueue normal() {
        return normal;
    }

    @Override
    public final boolean runsNormalQueue(Thread thread) {
        return drainer.get() == thread;
    }

    @Override
    public final DrainResult drain() {
        enterDrain();
        Thread host = Thread.currentThread();
        try {
            int fired = timers.fireDue(nanoTime());
            int turns = 0;
            long pending = runnable(host);
            for (long i = 0; i < pending; i++) {
                int ran = runOne(host);
                if (ran < 0) {
                    break; // a sender is mid-queue: its actor runs in the next pass
                }
                turns += ran;
            }
            lanes.observeAll(nanoTime());
            return new DrainResult(turns, fired, runnable(host));
        } finally {
            normal.forgetTurnEndClock();
            drainer.set(null);
        }
    }

    @Override
    public final RunStatus runUntilIdle(Duration budget, long maxTurns) {
        boolean timed = !budget.isNegative() && !budget.isZero();
        long budgetNanos = timed ? saturatedNanos(budget) : 0;
        boolean wallCapped = timed && budgetsWallClock();
        long wallDeadline = wallCapped ? System.nanoTime() + budgetNanos : 0;
        boolean turnCapped = maxTurns > 0;
        enterDrain();
        Thread host = Thread.currentThread();
        try {
            long windowEnd = windowEnd(budgetNanos);
            long turns = 0;
            int spurious = 0;
            while (true) {
                timers.fireDue(nanoTime());
                long pending = runnable(host);
                if (pending == 0 || spurious > SPURIOUS_EMPTY_PASSES) {
                    if (pending == 0 && jumpToNextTimerWithin(windowEnd)) {
                        continue;
                    }
                    return quiescent(windowEnd);
                }
                long polled = 0;
                for (; polled < pending; polled++) {
                    int ran = runOne(host);
                    if (ran < 0) {
                        break;
                    }
                    turns += ran;
                    if ((turnCapped && turns >= maxTurns) || (wallCapped && System.nanoTime() - wallDeadline >= 0)) {
                        boolean workLeft = runnable(host) > 0 || timerDueWithin(windowEnd);
                        return workLeft ? RunStatus.BUDGET_SPENT : quiescent(windowEnd);
                    }
                }
                if (polled == 0) {
                    spurious++;
                    Thread.onSpinWait(); // a sender is between queueing and linking
                } else {
                    spurious = 0;
                }
            }
        } finally {
            normal.forgetTurnEndClock();
            drainer.set(null);
        }
    }

    /** Actors the draining thread would run now. */
    long runnable(Thread host) {
        return normal.depth();
    }

    /** One turn of the draining thread's work. @return turns run (0 or 1), or -1 if nothing could be polled */
    int runOne(Thread host) {
        ActorCell cell = normal.poll();
        return cell == null ? -1 : cell.runOnce();
    }

    /** True if the run's time budget is wall-clock time. */
    boolean budgetsWallClock() {
        return true;
    }

    /** The latest instant a run may reach on the virtual clock; unused with the wall clock. */
    long windowEnd(long budgetNanos) {
        return 0;
    }

    /** Nothing runnable: move time to the next timer due in the window, if time is ours to move. */
    boolean jumpToNextTimerWithin(long windowEnd) {
        return false;
    }

    /** A budget ran out: does a timer in the window count as work left? */
    boolean timerDueWithin(long windowEnd) {
        return false;
    }

    /** The end of a run with nothing left to do in it. */
    RunStatus quiescent(long windowEnd) {
        lanes.observeAll(nanoTime());
        return timers.hasArmed() ? RunStatus.TIMERS_PENDING : RunStatus.IDLE;
    }

    /** Throws, naming {@code what} was called, once the runtime is closed. */
    final void requireOpen(String what) {
        if (closed.getAsBoolean()) {
            throw new IllegalStateException(what + " was called on a closed runtime");
        }
    }

    private void enterDrain() {
        requireOpen("drain() or runUntilIdle()");
        Thread current = Thread.currentThread();
        if (!drainer.compareAndSet(null, current)) {
            Thread draining = drainer.get();
            throw new IllegalStateException(draining == current
                    ? "drain() or runUntilIdle() was called from inside a turn this thread's drain is running: a drain"
                            + " cannot start another (send a letter, or return and let the running drain go on)"
                    : "the runtime is already being drained by " + draining
                            + "; SINGLE_THREAD and SIMULATED have one host thread at a time");
        }
    }

    static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
