package dev.lanehost.lanes;

/**
 * What an actor does. One instance per actor, created by the factory given at spawn <em>on the actor's
 * own placement</em> (for a lane actor: on the lane's thread), and only ever called from its actor's
 * turns, one at a time, so it needs no synchronisation of its own.
 *
 * <p>An exception thrown from any method halts this actor only, with {@link ExitReason.Failed}; its
 * monitors learn why, and the runtime and other actors carry on.
 */
@FunctionalInterface
public interface Behavior {
    /**
     * Handles one letter: a message sent with {@link ActorRef#tell}, or a {@link Down} from a monitor.
     */
    void receive(ActorContext context, Object message) throws Exception;

    /** The actor's first turn, before any message. */
    default void started(ActorContext context) throws Exception {
    }

    /**
     * Called once when the actor halts, for any reason, before its signals, timers, parks and arena are
     * torn down, on the actor's own placement; at the runtime's close, where that placement's thread has stopped
     * (a worker, a blocking or placement thread) or a lane's host did not drive it in time, on the closing thread.
     */
    default void stopped(ActorContext context, ExitReason reason) throws Exception {
    }
}
