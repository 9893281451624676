package dev.lanehost.lanes.mailbox;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ExitReason;

/**
 * Whom a letter is delivered to ({@link Letter#deliver}): the turn running it, as the actor's context. The turn's
 * runner is the one kind there is, so the JIT binds these calls as it would the runner's own methods.
 */
public interface Recipient extends ActorContext {
    /** The actor's start: make the behaviour and run {@code started}. */
    void start() throws Exception;

    /** A message, or a {@code Down} notice, for the behaviour. */
    void behaviorReceives(Object message) throws Exception;

    /** Halts the actor (a linked peer's exit). */
    void haltActor(ExitReason reason);

    /** The actor's life: a timer's, a signal's or a park's letter from an earlier life is dropped. */
    int incarnation();
}
