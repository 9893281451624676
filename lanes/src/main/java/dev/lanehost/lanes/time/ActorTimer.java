package dev.lanehost.lanes.time;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An actor's timer as the runtime keeps it: its schedule, its state, its letter and its place in the timer queue and
 * in its owner's held timers. Its public handle, {@link dev.lanehost.lanes.Timer}, documents the protocol and hands
 * {@code cancel} here.
 *
 * <h2>Repeating protocol</h2>
 * <ol>
 *   <li>Due ({@code ARMED → DUE}): the timer queue has taken it out of its heap; its one letter goes to the owner's
 *       mailbox. It is in no heap now, so it cannot fire again while that letter is queued or its turn runs: a slow
 *       turn never piles up letters.</li>
 *   <li>Its turn runs the callback, then re-arms ({@code DUE → ARMED}) at the next deadline of its fixed-rate
 *       schedule after the runtime's clock: {@code first + k × period}. A tick that comes too late for one or more
 *       deadlines does not run them back to back; they are skipped.</li>
 *   <li>{@link #cancel()} ({@code ARMED|DUE → CANCELLED}) wins over a re-arm in flight: the re-arm's CAS fails.
 *       Cancelled inside its own callback, it does not fire again.</li>
 *   <li>A callback that throws halts its actor (as any turn), and the halt cancels the timer; so does a normal
 *       stop, and the teardown of every actor when the runtime closes.</li>
 * </ol>
 * In the SIMULATED profile the deadlines are on the virtual clock and ties break by arming order, so a repeating
 * timer is as deterministic as a sequence of one-shot delays.
 */
public final class ActorTimer implements Comparable<ActorTimer>, Letter.Due {
    private static final int ARMED = 0;
    /** One-shot only: it fired; that is the end. */
    private static final int FIRED = 1;
    private static final int CANCELLED = 2;
    /** Repeating only: out of the heap, its letter queued or its turn running; it re-arms after that turn. */
    private static final int DUE = 3;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ActorTimer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ResourceOwner<ActorTimer, ?, ?> owner;
    private final TimerQueue queue;
    /** 0 for a one-shot timer. */
    private final long periodNanos;
    private final TurnCallback callback;
    /** A repeating timer's one letter, offered again each period (a letter may be queued again once taken); else null. */
    private final Letter.TimerDue letter;
    /** Its node in the queue's arrival inbox, reused by every re-arm. */
    final TimerQueue.Arrival arrival = new TimerQueue.Arrival(this);
    /**
     * When it is due, and its tie-break: creation order, then re-arming order. Written only while the timer is in no
     * heap (before its first arming, and by its own turn before re-arming), and published by the queue's lock.
     */
    long deadline;
    long sequence;
    @SuppressWarnings("unused")
    private volatile int state;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    private final int incarnation;
    // The owner's list of held timers (ActorResources), guarded by that object's lock: a node of its own per
    // timer, so holding a timer allocates nothing beyond the timer.
    public ActorTimer previousHeld;
    public ActorTimer nextHeld;
    public boolean held;

    public ActorTimer(ResourceOwner<ActorTimer, ?, ?> owner, TimerQueue queue, long deadline, long sequence, long periodNanos,
            TurnCallback callback) {
        this.incarnation = owner.incarnation();
        this.owner = owner;
        this.queue = queue;
        this.deadline = deadline;
        this.sequence = sequence;
        this.periodNanos = periodNanos;
        this.callback = callback;
        this.letter = periodNanos > 0 ? new Letter.TimerDue(this) : null;
    }

    /**
     * Cancels the timer: a one-shot timer that has not fired yet, or a repeating one (it does not fire again; a
     * letter of it already queued runs nothing).
     *
     * @return true if this call cancelled it; false if it had already fired (one-shot) or been cancelled
     */
    public boolean cancel() {
        if (!claimCancel()) {
            return false;
        }
        owner.forgetTimer(this);
        owner.ended(LiveCounters.Kind.TIMERS);
        return true;
    }

    /** True until it fires (one-shot) or is cancelled, or its owner halts. */
    public boolean isArmed() {
        int now = state;
        return now == ARMED || now == DUE;
    }

    /** True for a timer made by {@link ActorContext#every}. */
    public boolean isRepeating() {
        return periodNanos > 0;
    }

    /** Called by the timer queue when due (already out of its heap): hands the callback to the owner as a letter. */
    void fire() {
        boolean repeating = periodNanos > 0;
        if (!STATE.compareAndSet(this, ARMED, repeating ? DUE : FIRED)) {
            return; // cancelled meanwhile; the queue drops it
        }
        if (!repeating) {
            owner.forgetTimer(this);
            owner.ended(LiveCounters.Kind.TIMERS);
        }
        owner.timerDue(this); // a halted owner refuses it; its teardown cancels a repeating timer
    }

    /** The letter that carries this firing: a repeating timer's own, or a new one. */
    public Letter.TimerDue letter() {
        return letter != null ? letter : new Letter.TimerDue(this);
    }

    /** Halt teardown: cancel without touching the owner's (already cleared) timer set. */
    public void cancelForHalt() {
        if (claimCancel()) {
            owner.ended(LiveCounters.Kind.TIMERS);
        }
    }

    @Override
    public int incarnation() {
        return incarnation;
    }

    /** The owner's turn for this firing: the callback, then (repeating) the re-arm. */
    @Override
    public void run(ActorContext context) throws Exception {
        if (periodNanos > 0 && state != DUE) {
            return; // cancelled after its letter was queued
        }
        callback.run(context);
        if (periodNanos > 0) {
            rearm(context.nanoTime());
        }
    }

    @Override
    public int compareTo(ActorTimer other) {
        int byDeadline = Long.compare(deadline, other.deadline);
        return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
    }

    /** Next deadline of the fixed-rate schedule strictly after {@code now}, saturating at {@code Long.MAX_VALUE}. */
    static long nextDeadline(long deadline, long periodNanos, long now) {
        long periods = now < deadline ? 1 : (now - deadline) / periodNanos + 1;
        if (periods > (Long.MAX_VALUE - deadline) / periodNanos) {
            return Long.MAX_VALUE;
        }
        return deadline + periods * periodNanos;
    }

    private void rearm(long now) {
        if (state != DUE) {
            return; // cancelled in its own callback, or its owner is halting
        }
        // Not in any heap while DUE, so nobody else reads these; the inbox's offer publishes them.
        deadline = nextDeadline(deadline, periodNanos, now);
        sequence = queue.nextSequence();
        if (STATE.compareAndSet(this, DUE, ARMED)) {
            queue.add(this);
        }
    }

    private boolean claimCancel() {
        while (true) {
            int now = state;
            if (now != ARMED && now != DUE) {
                return false;
            }
            if (STATE.compareAndSet(this, now, CANCELLED)) {
                return true;
            }
        }
    }
}
