package dev.lanehost.samples;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The timing records an audio callback writes into its timing ring, one per period ({@code lanehost_audio_timing}
 * in {@code audio_source.h}: wake time, audio-ring fill after the write, first sample, frames, dropped), collected
 * for the plot. One consumer thread at a time, like any ring consumer.
 */
public final class AudioTiming {
    /** {@code sizeof(lanehost_audio_timing)}. */
    public static final int RECORD_BYTES = 32;

    private final SpscByteRing ring;
    private final ByteBuffer buffer = ByteBuffer.allocate(RECORD_BYTES * 1024).order(ByteOrder.nativeOrder());
    private final boolean grows;
    private long[] wakeNanos;
    private long[] fillBytes;
    private long[] firstSample;
    private boolean[] dropped;
    private int count;
    private long read;
    private long droppedCount;
    private long producedSamples;

    /** Keeps every record (for the plot): its arrays grow as records come. */
    public AudioTiming(SpscByteRing timingRing) {
        this(timingRing, 1024, true);
    }

    /**
     * Keeps the first {@code keep} records and only counts the rest, so that reading never allocates: for runs too
     * long to plot, whose consumer must not allocate in its turns.
     */
    public static AudioTiming keepingFirst(SpscByteRing timingRing, int keep) {
        if (keep < 0) {
            throw new IllegalArgumentException("records to keep must be >= 0, got " + keep);
        }
        return new AudioTiming(timingRing, keep, false);
    }

    private AudioTiming(SpscByteRing timingRing, int capacity, boolean grows) {
        this.ring = timingRing;
        this.grows = grows;
        wakeNanos = new long[capacity];
        fillBytes = new long[capacity];
        firstSample = new long[capacity];
        dropped = new boolean[capacity];
    }

    /** Reads every whole record the ring holds now. @return records read */
    public int drain() {
        long before = read;
        while (true) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), ring.readable() / RECORD_BYTES * RECORD_BYTES));
            if (buffer.limit() == 0 || ring.read(buffer) <= 0) {
                return (int) (read - before);
            }
            buffer.flip();
            while (buffer.remaining() >= RECORD_BYTES) {
                add(buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getInt(), buffer.getInt() != 0);
            }
        }
    }

    private void add(long wake, long fill, long first, int frames, boolean wasDropped) {
        read++;
        if (wasDropped) {
            droppedCount++;
        } else {
            producedSamples = first + frames;
        }
        if (count == wakeNanos.length && !grows) {
            return;
        }
        if (count == wakeNanos.length) {
            int grown = count * 2;
            wakeNanos = Arrays.copyOf(wakeNanos, grown);
            fillBytes = Arrays.copyOf(fillBytes, grown);
            firstSample = Arrays.copyOf(firstSample, grown);
            dropped = Arrays.copyOf(dropped, grown);
        }
        wakeNanos[count] = wake;
        fillBytes[count] = fill;
        firstSample[count] = first;
        dropped[count] = wasDropped;
        count++;
    }

    /**
     * The producer's clock, as its records say: samples it had placed in the audio ring by its latest record read. A
     * record is written after its period's audio, so the audio ring holds at least this many (less what was read).
     */
    public long producedSamples() {
        return producedSamples;
    }

    /** Records kept so far (all read, unless made with {@link #keepingFirst}). */
    public int count() {
        return count;
    }

    /** Records read so far, kept or not. */
    public long read() {
        return read;
    }

    /** Records that said their period was dropped (the audio ring was full). */
    public long droppedPeriods() {
        return droppedCount;
    }

    /** When record {@code i}'s callback woke (CLOCK_MONOTONIC nanoseconds). */
    public long wakeNanos(int i) {
        return wakeNanos[i];
    }

    /** The audio ring's fill after record {@code i}'s write, in bytes. */
    public long fillBytes(int i) {
        return fillBytes[i];
    }

    /** The sweep index of record {@code i}'s first sample. */
    public long firstSample(int i) {
        return firstSample[i];
    }

    public boolean dropped(int i) {
        return dropped[i];
    }
}
