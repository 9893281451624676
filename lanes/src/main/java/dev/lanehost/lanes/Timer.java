package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.TimerAccess;
import dev.lanehost.lanes.time.ActorTimer;

/**
 * A timer of an actor: when due, its callback runs as a turn of its owner, on the owner's placement. Cancel it
 * from any thread.
 *
 * <ul>
 *   <li><b>One-shot</b> ({@link ActorContext#delay}): fires once.</li>
 *   <li><b>Repeating</b> ({@link ActorContext#every}): fires every period until cancelled or its owner halts. It
 *       is one object for its whole life and re-arms itself in place after each of its turns, with the same letter,
 *       so a steady periodic tick allocates nothing.</li>
 * </ul>
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
public final class Timer implements Comparable<Timer> {
    static {
        Access.setTimers((TimerAccess<Timer, ActorTimer>) Timer::new);
    }

    private final ActorTimer timer;

    private Timer(ActorTimer timer) {
        this.timer = timer;
    }

    /**
     * Cancels the timer: a one-shot timer that has not fired yet, or a repeating one (it does not fire again; a
     * letter of it already queued runs nothing).
     *
     * @return true if this call cancelled it; false if it had already fired (one-shot) or been cancelled
     */
    public boolean cancel() {
        return timer.cancel();
    }

    /** True until it fires (one-shot) or is cancelled, or its owner halts. */
    public boolean isArmed() {
        return timer.isArmed();
    }

    /** True for a timer made by {@link ActorContext#every}. */
    public boolean isRepeating() {
        return timer.isRepeating();
    }

    /** By deadline, then by arming order: the order in which the two fire. */
    @Override
    public int compareTo(Timer other) {
        return timer.compareTo(other.timer);
    }
}
