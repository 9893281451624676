package dev.lanehost.lanes;

/** Where the runtime runs. */
public enum Profile {
    /** Threads: a worker for the normal queue and a timer thread; lanes are driven by their hosts. */
    HOSTED,
    /** No threads at all: the host calls {@code drain()} / {@code runUntilIdle()}; timers fire inside them. */
    SINGLE_THREAD,
    /**
     * Single thread plus a virtual clock (timers fire when the test advances it, or when
     * {@code runUntilIdle} reaches them within its budget of virtual time) and a seeded choice among the
     * normal queue, every lane and their ready actors, all run by {@code drain()} / {@code runUntilIdle()}:
     * the same seed gives the same schedule, which can be recorded and replayed.
     */
    SIMULATED
}
