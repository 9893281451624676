package dev.lanehost.benchmarks.actors;

/**
 * One scenario set up on one contender: its actors are spawned once per trial, and each benchmark invocation
 * runs one batch of messages through them and returns when the batch has finished.
 */
interface ActorScenario extends AutoCloseable {
    /** Runs one batch and waits for its last message to be handled (a latch, never a sleep). */
    void runBatch() throws InterruptedException;

    /** Stops the contender; for lanehost, also checks that nothing leaked. */
    @Override
    void close();
}
