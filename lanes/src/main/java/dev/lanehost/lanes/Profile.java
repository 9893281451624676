package dev.lanehost.lanes;

/** Where the runtime runs. */
public enum Profile {
    /** Threads: a worker for the normal queue and a timer thread; lanes are driven by their hosts. */
    HOSTED,
    /** No threads at all: the host calls {@code drain()} / {@code runUntilIdle()}; timers fire inside them. */
    SINGLE_THREAD,
    /**
     * Single thread plus a virtual clock (timers fire when the test advances it) and a seeded choice among
     * ready actors: the same seed gives the same schedule, which can be recorded and replayed.
     */
    SIMULATED
}
