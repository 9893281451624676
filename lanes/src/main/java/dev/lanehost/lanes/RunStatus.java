package dev.lanehost.lanes;

/** Why {@link ActorRuntime#runUntilIdle} returned. */
public enum RunStatus {
    /** Nothing is runnable and no timer is armed: the runtime is quiescent. */
    IDLE,
    /** Nothing is runnable now, but timers are armed for later. */
    TIMERS_PENDING,
    /** The budget ran out with work still runnable. */
    BUDGET_SPENT,
    /** The runtime is closed. */
    CLOSED
}
