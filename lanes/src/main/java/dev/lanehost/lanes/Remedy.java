package dev.lanehost.lanes;

/** What a {@link Supervisor} does with an actor whose turn faulted. */
public enum Remedy {
    /** The actor halts with the fault and is gone: what happens without a supervisor. */
    RETIRE,
    /**
     * The actor halts with the fault (its references read terminated; its queued letters are dropped, as in any
     * halt) and a fresh actor takes its place: the same name, placement, options and behaviour factory, a new
     * identity. {@link Supervisor#restarted} hands over the new reference. If the fresh actor's start faults, it
     * is retired without asking the supervisor again, so a factory whose behaviours cannot start does not loop.
     */
    RESTART,
    /**
     * The actor keeps its identity and its queued letters and gets a fresh state: the faulted behaviour's
     * {@code stopped} runs, its signals, timers, parks and arena are released, and a new behaviour from the
     * factory starts as the actor's next turn. Links and monitors belong to the identity and stay. The letter
     * that faulted is not retried; letters the released resources had delivered are dropped. A fresh start that
     * faults again retires the actor.
     */
    HYDRATE
}
