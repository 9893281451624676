package dev.lanehost.lanes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link TurnTask} that is its own letter: {@link ActorRef#offerTask offering} it allocates nothing, where any
 * other task is wrapped in a letter of 24 bytes. It may be offered again once it has left the actor's queue — when
 * its {@link #run} begins, or its {@link #abandoned} is called — so a caller that sends the same kind of work again
 * and again (a call gate's calls) keeps one and allocates nothing per send.
 *
 * <p>A task still queued cannot be queued again, on this actor or another: the offer throws
 * {@link IllegalStateException} and the queue is left as it was (its run must not begin twice). An offer that is refused ({@link Delivery#FULL}, {@link Delivery#TERMINATED}) leaves it free.
 */
public abstract non-sealed class ReusableTask extends Letter implements TurnTask {
    private static final VarHandle QUEUED;

    static {
        try {
            QUEUED = MethodHandles.lookup().findVarHandle(ReusableTask.class, "queued", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** In a queue: set by the offer that queues it, cleared when it leaves the queue. */
    @SuppressWarnings("unused")
    private volatile boolean queued;

    protected ReusableTask() {
        super(NO_FLAGS);
    }

    /** Whether the task is in an actor's queue now (offered, and neither run nor abandoned yet). Any thread. */
    public final boolean isQueued() {
        return queued;
    }

    @Override
    final void deliver(TurnRunner runner) throws Exception {
        QUEUED.setRelease(this, false); // out of the queue: the run may offer it again
        run(runner);
    }

    /** The offer's claim on the task; false if it is already queued. */
    final boolean claim() {
        return QUEUED.compareAndSet(this, false, true);
    }

    /** The task left the queue without running (refused, or dropped by a halted actor's teardown). */
    final void unclaim() {
        QUEUED.setRelease(this, false);
    }
}
