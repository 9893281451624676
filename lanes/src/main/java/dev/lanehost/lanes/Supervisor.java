package dev.lanehost.lanes;

/**
 * Decides what happens to an actor whose turn faulted: threw ({@link ExitReason.Failed}) or ran out of its turn
 * budget ({@link ExitReason#BUDGET}). Given per actor ({@link SpawnOptions#withSupervisor}); without one the actor
 * retires. Other halts — stopped, killed, linked, shut down — are not faults and are not supervised.
 *
 * <p>Both methods run on the faulted actor's placement, right after the turn, and must not block; a supervisor
 * that throws retires the actor (and is logged).
 */
@FunctionalInterface
public interface Supervisor {
    /** Retires every fault: the default. */
    Supervisor RETIRE = (actor, fault) -> Remedy.RETIRE;

    /**
     * The remedy for {@code actor}, whose turn just faulted.
     *
     * @param fault {@link ExitReason.Failed} with the exception, or {@link ExitReason#BUDGET}
     * @return the remedy; null retires
     */
    Remedy onFault(ActorRef actor, ExitReason fault);

    /** After {@link Remedy#RESTART}: {@code old} reads terminated, {@code fresh} is the actor that replaced it. */
    default void restarted(ActorRef old, ActorRef fresh) {
    }
}
