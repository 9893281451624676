package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.RefAccess;
import dev.lanehost.lanes.seam.Addressee;
import java.util.Objects;
import java.util.Optional;

/**
 * A runtime-wide handle on an actor. It stays valid after the actor dies: it then reads terminated, and
 * sends to it report that they were not delivered. Senders never care where the actor runs.
 */
public final class ActorRef {
    static {
        Access.setRefs(new RefAccess<ActorRef, Addressee>() {
            @Override
            public ActorRef newRef(Addressee cell) {
                return new ActorRef(cell);
            }

            @Override
            public Addressee addressee(ActorRef ref) {
                return ref.cell;
            }
        });
    }

    /** The actor; its cell, seen only through the seam a handle needs. */
    final Addressee cell;

    ActorRef(Addressee cell) {
        this.cell = cell;
    }

    public long id() {
        return cell.id();
    }

    public String name() {
        return cell.name();
    }

    public Placement placement() {
        return cell.placement();
    }

    /**
     * Sends a message; it will be handled in a turn of this actor, after the letters already queued.
     * Any thread.
     *
     * @return true if queued; false if the actor has halted (or is halting), the runtime is closed, or its mailbox or
     *         lane is full ({@link #offer} says which)
     * @throws NullPointerException if {@code message} is null (a letter carries something; send a value that
     *                              means "nothing" if the actor needs one)
     */
    public boolean tell(Object message) {
        return offer(message) == Delivery.QUEUED;
    }

    /**
     * Sends a message if the actor's mailbox and lane have room, and says what became of it. Any thread.
     *
     * @return {@link Delivery#QUEUED}; {@link Delivery#FULL} if the mailbox or the lane holds its capacity of
     *         letters (nothing queued, counted); {@link Delivery#TERMINATED} if the actor has halted or the runtime
     *         is closed
     * @throws NullPointerException if {@code message} is null
     */
    public Delivery offer(Object message) {
        Objects.requireNonNull(message, "message");
        return cell.offer(message);
    }

    /**
     * Queues a task to run as a turn of this actor, after the letters already queued. Any thread.
     *
     * @return true if queued; false if the actor has halted, or its mailbox or lane is full (the task will then
     *         never run, and {@link TurnTask#abandoned()} is not called; {@link #offerTask} says which)
     */
    public boolean submit(TurnTask task) {
        return offerTask(task) == Delivery.QUEUED;
    }

    /**
     * As {@link #submit}, saying what became of the task ({@link #offer} for the answers). Any thread. A
     * {@link ReusableTask} is queued in the letter it holds, made once with it.
     *
     * @throws IllegalStateException if {@code task} is a {@link ReusableTask} that is queued already
     */
    public Delivery offerTask(TurnTask task) {
        java.util.Objects.requireNonNull(task, "task");
        return cell.offerTask(task);
    }

    /**
     * True if the calling thread is one that runs this actor's turns: the bound thread of its lane, its
     * HOSTED worker if pinned, any HOSTED worker if normal, or the thread inside {@code drain()}/{@code runUntilIdle()}. Blocking such
     * a thread until this actor answers would deadlock.
     */
    public boolean isPlacementThread() {
        return cell.isRunBy(Thread.currentThread());
    }

    /**
     * Halts the actor with {@link ExitReason#KILLED}. Any thread.
     *
     * @return true if this call halted it
     */
    public boolean kill() {
        return cell.halt(ExitReason.KILLED);
    }

    /**
     * Exempts the actor from its turn budget until {@link #thaw()}: its turns are neither asked to yield, nor
     * struck, nor disrupted, however long they run. For an actor stopped on purpose (a debugger's breakpoint,
     * a step-by-step session) that would otherwise be halted for overrunning. Any thread.
     */
    public void freeze() {
        cell.setFrozen(true);
    }

    /** Ends {@link #freeze()}: the running turn is measured from its start again. Any thread. */
    public void thaw() {
        cell.setFrozen(false);
    }

    /** True between {@link #freeze()} and {@link #thaw()}. */
    public boolean isFrozen() {
        return cell.isFrozen();
    }

    /** True once the actor has halted (its teardown may still be running on its placement). */
    public boolean isTerminated() {
        return cell.exitReason() != null;
    }

    /** Why the actor halted, once it has. */
    public Optional<ExitReason> exitReason() {
        return Optional.ofNullable(cell.exitReason());
    }

    @Override
    public String toString() {
        return "ActorRef[" + cell.id() + " " + cell.name() + " " + cell.placement() + (isTerminated() ? " terminated" : "") + "]";
    }
}
