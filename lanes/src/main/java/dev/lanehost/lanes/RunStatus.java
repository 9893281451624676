package dev.lanehost.lanes;

/** Why {@link ActorRuntime#runUntilIdle} returned. */
public enum RunStatus {
    /**
     * Nothing this call can run is runnable and no timer is armed: quiescent, except for lanes bound to another live
     * thread, whose letters wait for that thread's drives.
     */
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
