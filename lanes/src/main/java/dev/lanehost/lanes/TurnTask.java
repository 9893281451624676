package dev.lanehost.lanes;

/**
 * Work submitted from outside an actor that runs as one of its turns, on its placement, with its context
 * ({@link ActorRef#submit}). Call gates are built on it: a gate call is a task.
 *
 * <p>An exception from {@link #run} halts the actor by the normal rules, exactly like a failing
 * {@link Behavior#receive}.
 */
public interface TurnTask {
    void run(ActorContext context) throws Exception;

    /**
     * The task will never run: its actor halted with the task still queued. Called once, on the thread
     * tearing the actor down; must not throw or block.
     */
    default void abandoned() {
    }
}
