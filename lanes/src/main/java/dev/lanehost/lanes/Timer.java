package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.LiveCounters;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A delay registered with {@link ActorContext#delay}: when due, its callback runs as a turn of its owner,
 * on the owner's placement. Cancel it from any thread.
 */
public final class Timer implements Comparable<Timer> {
    private static final int ARMED = 0;
    private static final int FIRED = 1;
    private static final int CANCELLED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Timer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ResourceOwner owner;
    final long deadline;
    /** Ties between equal deadlines break by creation order, so timer order is deterministic. */
    final long sequence;
    private final TurnCallback callback;
    @SuppressWarnings("unused")
    private volatile int state;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    final int incarnation;

    Timer(ResourceOwner owner, long deadline, long sequence, TurnCallback callback) {
        this.incarnation = owner.incarnation();
        this.owner = owner;
        this.deadline = deadline;
        this.sequence = sequence;
        this.callback = callback;
    }

    /**
     * Cancels the timer if it has not fired yet.
     *
     * @return true if this call cancelled it; false if it had already fired or been cancelled
     */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, ARMED, CANCELLED)) {
            return false;
        }
        owner.forget(this);
        owner.ended(LiveCounters.Kind.TIMERS);
        return true;
    }

    /** True until it fires or is cancelled. */
    public boolean isArmed() {
        return state == ARMED;
    }

    /** Called by the timer queue when due: hands the callback to the owner as a letter. */
    void fire() {
        if (!STATE.compareAndSet(this, ARMED, FIRED)) {
            return; // cancelled meanwhile; the queue drops it
        }
        owner.forget(this);
        owner.ended(LiveCounters.Kind.TIMERS);
        owner.timerDue(this);
    }

    /** Halt teardown: cancel without touching the owner's (already cleared) timer set. */
    void cancelForHalt() {
        if (STATE.compareAndSet(this, ARMED, CANCELLED)) {
            owner.ended(LiveCounters.Kind.TIMERS);
        }
    }

    void run(ActorContext context) throws Exception {
        callback.run(context);
    }

    @Override
    public int compareTo(Timer other) {
        int byDeadline = Long.compare(deadline, other.deadline);
        return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
    }
}
