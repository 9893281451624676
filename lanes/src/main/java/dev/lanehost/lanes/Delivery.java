package dev.lanehost.lanes;

/** What became of a message or task offered to an actor ({@link ActorRef#offer}, {@link ActorRef#offerTask}). */
public enum Delivery {
    /** Queued: it will be handled in a turn of the actor, after the letters already queued. */
    QUEUED,
    /**
     * Refused, nothing queued: the actor's mailbox holds its capacity of letters, or its lane does
     * ({@link SpawnOptions#withMailboxCapacity}, {@link RuntimeBuilder#mailboxCapacity},
     * {@link RuntimeBuilder#laneCapacity}). Counted by {@link RuntimeMetrics#refusedLetters()}. Try later,
     * or shed the work: the runtime never buffers it for you.
     */
    FULL,
    /** The actor has halted (or is halting), or the runtime is closed; nothing queued. */
    TERMINATED
}
