package dev.lanehost.samples;

/**
 * A real-time audio callback that writes a {@link Sweep} into the audio ring and one timing record a period into
 * the timing ring, without entering the JVM: JACK's process callback ({@link JackAudio}) or the built-in audio
 * thread ({@link AudioThread}).
 */
public interface AudioProducer extends AutoCloseable {
    /**
     * What the callback counted.
     *
     * @param periods          callbacks run
     * @param samplesWritten   samples placed in the audio ring
     * @param ringOverruns     periods dropped because the audio ring was full (the consumer fell behind)
     * @param timingOverruns   timing records dropped because the timing ring was full
     * @param xruns            JACK's xruns (server-wide); 0 for the built-in thread
     * @param latePeriods      periods that woke more than a period late (built-in thread); 0 for JACK
     * @param maxLatenessNanos the latest wake-up after its deadline (built-in thread); 0 for JACK
     * @param running          the callback still runs
     */
    record Counts(long periods, long samplesWritten, long ringOverruns, long timingOverruns, long xruns, long latePeriods,
                  long maxLatenessNanos, boolean running) {
    }

    /** What runs the callback, for output. */
    String name();

    Sweep sweep();

    int periodFrames();

    /** The counts so far; after {@link #close()}, the final ones. */
    Counts counts();

    /** Stops the callback; after it returns, nothing writes into the rings any more. */
    @Override
    void close();
}
