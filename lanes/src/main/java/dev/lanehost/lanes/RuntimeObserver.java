package dev.lanehost.lanes;

/** Optional hooks into the runtime's life, for tests, tracing and debugging. Must not throw or block. */
public interface RuntimeObserver {
    /** A step of an actor's halt has completed, on the thread that ran it. */
    default void haltStep(ActorRef actor, HaltStep step) {
    }
}
