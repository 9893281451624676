package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.turn.TurnRunner;
import java.util.List;

/**
 * The HOSTED turn-budget clock, run by the timer thread: it looks at the turn each run queue's consumer is
 * running (each worker's two queues, each lane's host thread) and raises the flags that turn has earned, so
 * the budget clock never runs on the thread it judges.
 *
 * <h2>When it looks</h2>
 * <ol>
 *   <li>While a turn is running, at that turn's next budget deadline.</li>
 *   <li>While turns keep starting but none is running when it looks, every half fast budget: a turn that starts
 *       just after a look is seen at most that late.</li>
 *   <li>After {@link #QUIET_NANOS} without a turn it announces that it sleeps ({@link RuntimeContext#budgetWatchAsleep})
 *       and looks only at the timer thread's own pace; the next turn's runner sees the announcement and wakes it.
 *       The runner writes its turn slot and then reads the announcement with no fence between (a fence per turn
 *       would cost more than the watch saves), so a turn starting in the instant the watch falls asleep is seen
 *       at the timer thread's next wake instead: late, never missed.</li>
 * </ol>
 * Timer thread only, except {@link #minFastNanos}, which spawns lower.
 */
public final class BudgetWatch {

    /** No turn for this long and the watch sleeps: an idle runtime then costs no wake-ups for budgets. */
    static final long QUIET_NANOS = 1_000_000_000L;

    private final RuntimeContext runtime;
    /** The workers' run queues (each worker's shared and pinned queue). */
    private final List<RunQueue> queues;
    private final LaneRegistry lanes;
    /** Half the shortest fast budget of any actor spawned so far: how often a busy runtime is looked at. */
    private volatile long tickNanos;
    private long turnsSeen = -1;
    private long lastActivity;

    public BudgetWatch(RuntimeContext runtime, List<RunQueue> queues, LaneRegistry lanes) {
        this.runtime = runtime;
        this.queues = queues;
        this.lanes = lanes;
        this.tickNanos = Math.max(1, runtime.defaultBudget.fastNanos / 2);
    }

    /** An actor with this budget was spawned: a shorter fast budget makes the watch look more often. Any thread. */
    void minFastNanos(long fastNanos) {
        long tick = Math.max(1, fastNanos / 2);
        synchronized (this) {
            if (tick < tickNanos) {
                tickNanos = tick;
            }
        }
    }

    /**
     * Raises the running turns' flags.
     *
     * <p>The clock is read again for each running turn, just before the turn is judged: a turn the watch sees for the
     * first time is stamped with that reading, which comes after the turn began. Stamped with {@code now}, the time
     * the look began, a turn that began during the look (the timer thread preempted between two run queues, or in
     * a CPU-time read) would be charged for time it did not run, and a loaded machine would strike or halt actors
     * whose turns were short.
     *
     * @param now when the look began; the idle bookkeeping's time
     * @return how long the timer thread may wait before it must look again (at most {@code idleWaitNanos})
     */
    public long observe(long now, long idleWaitNanos) {
        long nextDeadline = Long.MAX_VALUE;
        long turns = 0;
        boolean running = false;
        long judged = now;
        ActorCell cell;
        for (RunQueue queue : queues) {
            turns += queue.turnsStarted();
            cell = queue.running();
            if (cell != null) {
                running = true;
                judged = runtime.nanoTime();
                nextDeadline = Math.min(nextDeadline, TurnRunner.of(cell).clock.raise(judged, queue.consumer()));
            }
        }
        for (Lane lane : lanes.array()) {
            turns += lane.queue().turnsStarted();
            cell = lane.queue().running();
            if (cell != null) {
                running = true;
                judged = runtime.nanoTime();
                nextDeadline = Math.min(nextDeadline, TurnRunner.of(cell).clock.raise(judged, lane.boundThread()));
            }
        }
        if (running || turns != turnsSeen) {
            turnsSeen = turns;
            lastActivity = now;
            runtime.budgetWatchAsleep = false;
            long wait = Math.min(tickNanos, idleWaitNanos);
            return nextDeadline == Long.MAX_VALUE ? wait : Math.max(0, Math.min(wait, nextDeadline - judged));
        }
        if (now - lastActivity >= QUIET_NANOS) {
            runtime.budgetWatchAsleep = true;
            return idleWaitNanos;
        }
        return Math.min(tickNanos, idleWaitNanos);
    }
}
