package dev.lanehost.samples;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How much audio a reader playing a ring {@code latency} behind its <em>producer's own clock</em> should take now: the
 * producer says how many samples it has written (its timing records, or its sample counter), the reader asks
 * {@link #due} what to read, and counts an underrun when the ring held less than that.
 *
 * <p>Why the producer's clock and not the wall clock: a JACK server (the dummy driver above all, on a busy machine)
 * can lose whole cycles, and then the stream falls behind real time whatever the reader does. Against the wall clock
 * that shows up as "underruns" that are the server's, not the reader's; the server's lost cycles are counted
 * separately ({@link #lostCycles}). Against the producer's clock an underrun means what it says: the ring held less
 * than the producer had written, less the latency. One reader thread; allocates nothing.
 */
public final class PlaybackClock {
    private final long latencySamples;

    /** Plays {@code latency} (at {@code rate} samples a second) behind what the producer has written. */
    public PlaybackClock(Duration latency, int rate) {
        if (latency.isNegative() || rate <= 0) {
            throw new IllegalArgumentException("a playback clock needs a latency >= 0 and a rate > 0, got " + latency + " and " + rate);
        }
        this.latencySamples = latency.toNanos() * rate / TimeUnit.SECONDS.toNanos(1);
    }

    /** The latency, in samples: what the reader leaves in the ring. */
    public long latencySamples() {
        return latencySamples;
    }

    /**
     * Samples due beyond the {@code samplesRead} already played, when the producer says it has written
     * {@code producedSamples} (0 if none).
     */
    public long due(long producedSamples, long samplesRead) {
        return Math.max(0, producedSamples - latencySamples - samplesRead);
    }

    /**
     * The server's lost cycles: how many fewer cycles of {@code periodFrames} at {@code rate} a client ran in
     * {@code elapsedNanos} of wall-clock time than that time asks for (0 if it ran as many or more).
     */
    public static long lostCycles(long elapsedNanos, long cyclesRun, int rate, int periodFrames) {
        if (rate <= 0 || periodFrames <= 0) {
            throw new IllegalArgumentException("a rate and a period > 0 are needed, got " + rate + " and " + periodFrames);
        }
        long asked = (long) ((double) elapsedNanos * rate / TimeUnit.SECONDS.toNanos(1) / periodFrames);
        return Math.max(0, asked - cyclesRun);
    }
}
