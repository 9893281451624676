package dev.lanehost.lanes;

/** Why {@link ActorRuntime#runUntilIdle} returned. */
public enum RunStatus {
    /** Nothing is runnable and no timer is armed: the runtime is quiescent. */
    IDLE,
    /** Nothing is runnable now, but timers are armed for later. */
    TIMERS_PENDING,
    /**
     * A budget (time, or turns) ran out with work left: actors still runnable, or in SIMULATED a timer due
     * within the run's window of virtual time.
     */
    BUDGET_SPENT,
    /** The runtime is closed. */
    CLOSED
}
