package dev.lanehost.samples;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How much audio a sound card playing a ring {@code latency} behind real time has consumed by now: the reader asks
 * {@link #due} what to read, and calls {@link #underrun} when the ring held less. Like a sound card after an xrun,
 * playback then starts again from what is there, {@code latency} behind. One reader thread; allocates nothing.
 */
public final class PlaybackClock {
    private final long latencyNanos;
    private final int rate;
    private long anchorNanos;
    private long anchorSample;

    /** Starts playing at {@code nowNanos}, sample 0, {@code latency} behind. */
    public PlaybackClock(Duration latency, int rate, long nowNanos) {
        if (latency.isNegative() || rate <= 0) {
            throw new IllegalArgumentException("a playback clock needs a latency >= 0 and a rate > 0, got " + latency + " and " + rate);
        }
        this.latencyNanos = latency.toNanos();
        this.rate = rate;
        this.anchorNanos = nowNanos;
    }

    /** Samples due at {@code nowNanos} beyond the {@code samplesRead} already played (0 if none). */
    public long due(long nowNanos, long samplesRead) {
        long playable = (nowNanos - anchorNanos - latencyNanos) * rate / TimeUnit.SECONDS.toNanos(1);
        return Math.max(0, anchorSample + Math.max(0, playable) - samplesRead);
    }

    /** The ring held less than was due: start again from {@code samplesRead}, {@code latency} behind {@code nowNanos}. */
    public void underrun(long nowNanos, long samplesRead) {
        anchorNanos = nowNanos;
        anchorSample = samplesRead;
    }
}
