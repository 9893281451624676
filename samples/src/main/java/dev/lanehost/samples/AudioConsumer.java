package dev.lanehost.samples;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Timer;
import dev.lanehost.ring.SpscByteRing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

/**
 * The Java end of the audio ring: an actor (on a worker, never on the real-time thread) that plays the ring the
 * way a sound card would, then checks and records what it played.
 *
 * <ol>
 *   <li>Every tick ({@link #TICK}, a repeating timer: one timer for the actor's life, so a tick allocates nothing)
 *       it reads the timing records, then the audio that is due by the <em>producer's</em> clock: what its latest
 *       record says it has written, less {@link #LATENCY}. Reading only what is due keeps the ring about
 *       {@code LATENCY} full, as a playback buffer is.</li>
 *   <li>A tick that finds less audio than that counts an <em>underrun</em>: the ring held less than the producer
 *       said it had written. A server that loses cycles slows the producer's clock too, so its lost cycles are not
 *       underruns; {@link PlaybackClock#lostCycles} counts them apart.</li>
 *   <li>Each sample read is checked against the {@link Sweep} (every one, by index) and written to the WAV file.</li>
 *   <li>{@link #finish} (called in a turn, e.g. through a gate) stops the ticks, reads everything left, and
 *       closes the WAV file.</li>
 * </ol>
 *
 * The counters are written in its turns only and published for other threads to read (status lines).
 */
public final class AudioConsumer implements Behavior {
    /** How often it reads: short next to {@link #LATENCY}, long next to a timer's cost. */
    public static final Duration TICK = Duration.ofMillis(5);
    /** The playback buffer: 20 ms (7.5 periods of 128 frames at 48 kHz), a usual desktop audio latency. */
    public static final Duration LATENCY = Duration.ofMillis(20);

    private final SpscByteRing audio;
    private final AudioTiming timing;
    private final Sweep sweep;
    private final WavWriter wav;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.nativeOrder());

    private PlaybackClock playback;
    private Timer ticker;
    private boolean finished;
    private volatile Thread turnThread;
    // Written in turns only; volatile so a status line on another thread sees recent values.
    private volatile long samples;
    private volatile long underruns;
    private volatile long firstMismatch = -1;
    private volatile float mismatchValue;
    private volatile long ticks;

    /**
     * @param audio  the audio ring (native-order float samples of {@code sweep})
     * @param timing the timing ring's reader
     * @param wav    where the samples go, or null for none
     */
    public AudioConsumer(SpscByteRing audio, AudioTiming timing, Sweep sweep, WavWriter wav) {
        this.audio = audio;
        this.timing = timing;
        this.sweep = sweep;
        this.wav = wav;
    }

    @Override
    public void started(ActorContext context) {
        turnThread = Thread.currentThread();
        playback = new PlaybackClock(LATENCY, sweep.rate());
        ticker = context.every(TICK, this::tick);
    }

    @Override
    public void receive(ActorContext context, Object message) {
        throw new IllegalArgumentException("the audio consumer takes no messages, got " + message);
    }

    private void tick(ActorContext context) {
        if (finished) {
            return;
        }
        ticks++;
        timing.drain(); // first: the audio a record speaks of was written before it
        long due = playback.due(timing.producedSamples(), samples);
        if (due > 0 && read(due) < due) {
            underruns++;
        }
    }

    /**
     * Stops the ticks, reads every sample and timing record left, and closes the WAV file. Call it in one of this
     * actor's turns (a gate call's handler), after the producer stopped.
     *
     * @return the samples read in all
     */
    public long finish() {
        if (!finished) {
            finished = true;
            if (ticker != null) {
                ticker.cancel();
            }
            timing.drain();
            read(Long.MAX_VALUE);
            timing.drain();
            try {
                if (wav != null) {
                    wav.close();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return samples;
    }

    /** Reads up to {@code wanted} samples (whole samples only). @return samples read */
    private long read(long wanted) {
        long before = samples;
        long left = wanted;
        while (left > 0) {
            long bytes = Math.min(audio.readable() / Float.BYTES, left) * Float.BYTES;
            if (bytes == 0) {
                break;
            }
            buffer.clear().limit((int) Math.min(buffer.capacity(), bytes));
            int n = audio.read(buffer);
            buffer.flip();
            while (buffer.remaining() >= Float.BYTES) {
                consume(buffer.getFloat());
            }
            left -= n / Float.BYTES;
        }
        return samples - before;
    }

    private void consume(float value) {
        long index = samples;
        if (firstMismatch < 0 && Math.abs(value - sweep.sample(index)) > Sweep.TOLERANCE) {
            mismatchValue = value;
            firstMismatch = index;
        }
        if (wav != null) {
            try {
                wav.write(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        samples = index + 1;
    }

    /** Samples read and checked so far. */
    public long samples() {
        return samples;
    }

    /** Ticks that found less audio in the ring than the producer's records said it had written, less {@link #LATENCY}. */
    public long underruns() {
        return underruns;
    }

    /** The index of the first sample that was not the sweep's, or -1. */
    public long firstMismatch() {
        return firstMismatch;
    }

    /** What was read at {@link #firstMismatch()}. */
    public float mismatchValue() {
        return mismatchValue;
    }

    /** The thread its turns ran on (its pinned worker), or null before it started. */
    public Thread turnThread() {
        return turnThread;
    }

    /** Ticks run so far. */
    public long ticks() {
        return ticks;
    }

    /** The timing records read so far (read them after {@link #finish}, or in this actor's turns). */
    public AudioTiming timing() {
        return timing;
    }
}
