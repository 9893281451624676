package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.mailbox.Letter;

/**
 * An actor's turns, as its cell and the runtime see them: the runner that takes the actor's letters one turn at a
 * time ({@code TurnRunner}, the one kind there is, which the runtime makes for each cell through
 * {@link RuntimeContext#turnsOf}). The cell runs a turn, asks whether a hydration is pending, and hands the turn a
 * supervisor's decision or its teardown's {@code stopped}.
 */
public interface Turns {
    /**
     * Runs one letter as one turn. A failure halts the actor and is logged, once per actor.
     *
     * @return the band the actor waits in for its next turn: {@link RunQueue#SLOW_BAND} after a turn that was asked to
     *         yield, else {@link RunQueue#READY_BAND}
     */
    int run(Letter letter);

    /** True from a hydration until the fresh state's start has run. Runner only. */
    boolean isHydrating();

    /** True from a hydration or a restart until the fresh state's start has run: a fault now retires. Runner only. */
    boolean inFreshLife();

    /** A supervisor's hydration: the actor's next turn starts a fresh state from its factory. */
    void hydrate(ExitReason fault);

    /** A restart's successor, before it is published: its start is a fresh state's. */
    void markSuccessor();

    /** Teardown, first step: {@code stopped}, if the actor ever started; a failure is logged and ignored. */
    void stopped(ExitReason reason);

    /** Teardown, once every resource is released: the behaviour is unreachable from here on. */
    void forgetBehavior();

    /** The actor's start has run. */
    boolean isStarted();

    /** Turns completed. Any thread. */
    long turns();

    /** The runtime clock when the running turn began, {@code TurnClock.UNSEEN}, or 0 between turns. Any thread. */
    long turnStartedNanos();

    /** The thread running the actor's turn now, or null. Exact on that thread only. */
    Thread turnThread();
}
