package dev.lanehost.lanes;

import java.util.Map;

/**
 * A runtime's counters as JMX attributes, for JConsole, JMC or a JMX exporter: the MBean
 * {@code dev.lanehost:type=Runtime,name=<name>} that {@link ActorRuntime#registerMBean()} registers on the platform
 * MBean server. Every attribute is a read of {@link ActorRuntime#metrics()} at the time it is asked for (racy but
 * safe, never a wait on a turn). Per-worker attributes are arrays indexed by worker number, empty outside HOSTED.
 */
public interface ActorRuntimeMXBean {
    /** HOSTED, SINGLE_THREAD or SIMULATED. */
    String getProfile();

    boolean isClosed();

    /** {@link RuntimeMetrics#liveActors()} */
    long getLiveActors();

    /** {@link RuntimeMetrics#normalQueued()} */
    long getNormalQueued();

    /** {@link RuntimeMetrics#refusedLetters()} */
    long getRefusedLetters();

    /** {@link RuntimeMetrics#droppedMessages()} */
    long getDroppedMessages();

    /** {@link RuntimeMetrics#restarts()} */
    long getRestarts();

    /** {@link RuntimeMetrics#hydrations()} */
    long getHydrations();

    /** {@link RuntimeMetrics#stalledLanes()} */
    int getStalledLanes();

    /** {@link RuntimeMetrics#laneStallReports()} */
    long getLaneStallReports();

    /** {@link RuntimeMetrics#workerCount()} */
    int getWorkerCount();

    /** Each HOSTED worker's thread name. */
    String[] getWorkerThreads();

    /** Turns each HOSTED worker has run. */
    long[] getWorkerTurns();

    /** Steals each HOSTED worker tried on a queue that looked non-empty. */
    long[] getWorkerStealAttempts();

    /** Actors each HOSTED worker stole. */
    long[] getWorkerSteals();

    /** Normal actors queued on each HOSTED worker now. */
    long[] getWorkerNormalQueued();

    /** Pinned actors queued on each HOSTED worker now. */
    long[] getWorkerPinnedQueued();

    /** {@link RuntimeMetrics#affinitySuccesses()} */
    long getAffinitySuccesses();

    /** {@link RuntimeMetrics#affinityFailures()} */
    long getAffinityFailures();

    /** {@link RuntimeMetrics#haltsByReason()}: every kind of exit reason, zeros included. */
    Map<String, Long> getHaltsByReason();
}
