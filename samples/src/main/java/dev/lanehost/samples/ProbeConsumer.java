package dev.lanehost.samples;

/** What the consumer side of either of {@link AudioPathProbe}'s architectures offers the measurement. */
interface ProbeConsumer {
    /** The thread whose allocation is measured, or null if it has not run yet. */
    Thread thread();

    long samples();

    long underruns();

    /** The first wrong sample's index, or -1. */
    long firstMismatch();

    /** After the producer has stopped: reads what is left and ends. */
    void finish();
}
