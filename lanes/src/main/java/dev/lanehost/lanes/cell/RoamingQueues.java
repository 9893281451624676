package dev.lanehost.lanes.cell;

/**
 * The run queues a normal HOSTED actor roams among, as its cell sees them: where it goes when it becomes runnable. The
 * worker pool implements it with its placement rules; a cell holds this, never the pool, so the actor's core does not
 * reach up into the pool's threads. An abstract class, not an interface: with its one subclass the call is bound
 * statically, as the call on the pool was.
 */
public abstract class RoamingQueues {
    /** {@code cell} has just become runnable; only the caller that won its scheduled flag calls this. */
    public abstract void scheduled(ActorCell cell);
}
