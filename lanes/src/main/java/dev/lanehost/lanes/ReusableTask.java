package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.mailbox.Letter;

/**
 * A {@link TurnTask} that holds its own letter: {@link ActorRef#offerTask offering} it allocates nothing, where any
 * other task is wrapped in a letter of 24 bytes. It may be offered again once it has left the actor's queue — when
 * its {@link #run} begins, or its {@link #abandoned} is called — so a caller that sends the same kind of work again
 * and again (a call gate's calls) keeps one and allocates nothing per send.
 *
 * <p>A task still queued cannot be queued again, on this actor or another: the offer throws
 * {@link IllegalStateException} and the queue is left as it was (its run must not begin twice). An offer that is refused ({@link Delivery#FULL}, {@link Delivery#TERMINATED}) leaves it free.
 */
public abstract class ReusableTask implements TurnTask {
    static {
        Access.setTasks((ReusableTask task) -> task.letter);
    }

    /** Its letter: made once, here, and queued by every offer of this task. */
    final Letter.Reusable letter = new Letter.Reusable(this);

    protected ReusableTask() {
    }

    /** Whether the task is in an actor's queue now (offered, and neither run nor abandoned yet). Any thread. */
    public final boolean isQueued() {
        return letter.isQueued();
    }
}
