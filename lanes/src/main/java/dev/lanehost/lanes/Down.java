package dev.lanehost.lanes;

/**
 * The letter a monitoring actor receives (through {@link Behavior#receive}) when the actor it
 * monitors halts.
 *
 * @param actor  the actor that halted
 * @param reason why
 */
public record Down(ActorRef actor, ExitReason reason) {
}
