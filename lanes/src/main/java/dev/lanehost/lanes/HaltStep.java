package dev.lanehost.lanes;

/** The steps of an actor's halt, in the order they run; each runs once. */
public enum HaltStep {
    /** The halt was claimed and the actor left the registry: no new letter can find it. */
    REGISTRY,
    /** {@link Behavior#stopped} ran (or there was no behaviour to call). */
    STOPPED,
    /** Undelivered letters were dropped, and delivered-but-unconsumed parks released. */
    LETTERS,
    /** Signals were detached and their release hooks run. */
    SIGNALS,
    /** Armed timers were cancelled. */
    TIMERS,
    /** Pending parks were cancelled and their release hooks run (outside any lock). */
    PARKS,
    /** The actor's native arena was closed. */
    ARENA,
    /** Monitors were sent {@link Down}; linked actors were told of an abnormal exit. */
    NOTIFIED
}
