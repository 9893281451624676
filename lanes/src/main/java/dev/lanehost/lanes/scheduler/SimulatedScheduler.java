package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.RunStatus;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.queue.WorkFlag;
import dev.lanehost.lanes.time.TimerQueue;
import dev.lanehost.lanes.time.VirtualClock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The SIMULATED profile's scheduler: the draining loops of {@link DrainScheduler}, but each turn is a
 * seeded pick among the normal queue and every lane the draining thread may drive ({@link SimulatedQueues}),
 * and time is virtual: a turn takes none except at its explicit poll sites ({@link dev.lanehost.lanes.ActorContext#checkpoint()},
 * {@link dev.lanehost.lanes.ActorContext#shouldYield()}), each of which takes the poll cost and lets the virtual clock raise the
 * turn's budget flags; an idle run moves the clock to the next timer within its budget.
 * The picks are recorded as a {@link dev.lanehost.lanes.Schedule} that a replay forces.
 */
public final class SimulatedScheduler extends DrainScheduler {
    private final SimulatedSchedule schedule;
    private final SimulatedQueues queues;
    /** Virtual time an explicit poll site takes: how a simulated turn runs long. */
    private final long pollCostNanos;

    public SimulatedScheduler(TimerQueue timers, LaneRegistry lanes, BooleanSupplier closed, SimulatedSchedule schedule,
                       long pollCostNanos) {
        super(timers, lanes, closed, new VirtualClock(), schedule);
        this.schedule = schedule;
        this.queues = new SimulatedQueues(normal(), schedule);
        this.pollCostNanos = pollCostNanos;
    }

    @Override
    public void spendPollTime() {
        virtualClock().advance(pollCostNanos);
    }

    @Override
    public RunQueue newLaneQueue(String name, WorkFlag work) {
        return new RunQueue(name, schedule, null, work);
    }

    @Override
    public void laneRegistered(Lane lane) {
        queues.laneRegistered(lane);
    }

    @Override
    long runnable(Thread host) {
        return queues.runnable(host);
    }

    @Override
    int runOne(Thread host) {
        return queues.runOne(host);
    }

    @Override
    boolean budgetsWallClock() {
        return false; // the budget is virtual time; the wall clock is never read
    }

    @Override
    long windowEnd(long budgetNanos) {
        return VirtualClock.saturatedAdd(virtualClock().now(), budgetNanos);
    }

    @Override
    boolean jumpToNextTimerWithin(long windowEnd) {
        if (!timers.hasArmedDueBy(windowEnd)) {
            return false;
        }
        virtualClock().moveTo(timers.nextDeadlineWithin(windowEnd));
        return true;
    }

    @Override
    boolean timerDueWithin(long windowEnd) {
        return timers.hasArmedDueBy(windowEnd);
    }

    @Override
    RunStatus quiescent(long windowEnd) {
        virtualClock().moveTo(windowEnd); // no timer is due by then, so none is skipped
        return super.quiescent(windowEnd);
    }

    /** Moves the virtual clock forward and fires the timers that became due. @return timers fired */
    public int advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward; got " + duration);
        }
        requireOpen("advance()");
        if (runsNormalQueue(Thread.currentThread())) {
            throw new IllegalStateException("advance() was called from inside a turn: the virtual clock stands still during"
                    + " turns and moves between them (advance between drains, or let runUntilIdle move it)");
        }
        long now = virtualClock().now();
        long nanos = saturatedNanos(duration);
        if (nanos > Long.MAX_VALUE - now) {
            throw new IllegalArgumentException("the virtual clock is at " + now + " ns and cannot move " + duration
                    + " further: it ends at Long.MAX_VALUE ns (an unbounded runUntilIdle that ends idle leaves it there)");
        }
        return timers.fireDue(virtualClock().advance(nanos));
    }

    public SimulatedSchedule schedule() {
        return schedule;
    }
}
