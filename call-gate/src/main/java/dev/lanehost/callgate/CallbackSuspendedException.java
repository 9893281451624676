package dev.lanehost.callgate;

/**
 * Ends the turn of an actor whose gate handler returned a pending result to {@code callOnLane}: the actor
 * is disrupted (halted with this as the cause), as the contract of the lane entry requires.
 */
public final class CallbackSuspendedException extends RuntimeException {
    CallbackSuspendedException(String actor) {
        super("the gate handler of actor " + actor + " suspended (returned a pending CompletionStage) inside callOnLane");
    }
}
