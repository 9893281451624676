package dev.lanehost.samples;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The consumer of the JACK host's ring: reads native-order float samples and checks each against the sine the
 * C callback writes ({@link JackClient#sineSample}). One thread only, like any ring consumer.
 */
public final class SineCheck {
    /** How far a sample may be from Java's own computation: a float's rounding plus the last bits of two sin()s. */
    public static final float TOLERANCE = 1e-5f;

    private final SpscByteRing ring;
    private final double frequency;
    private final int sampleRate;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.nativeOrder());
    private long samples;
    private long firstMismatch = -1;
    private float mismatchValue;

    public SineCheck(SpscByteRing ring, double frequency, int sampleRate) {
        this.ring = ring;
        this.frequency = frequency;
        this.sampleRate = sampleRate;
    }

    /** Reads and checks what the ring holds now (whole samples only). @return the samples read */
    public long drain() {
        long before = samples;
        while (true) {
            int read = ring.read(buffer); // after any partial sample compact() kept
            if (read <= 0) {
                return samples - before;
            }
            buffer.flip();
            while (buffer.remaining() >= Float.BYTES) {
                check(buffer.getFloat());
            }
            buffer.compact();
        }
    }

    /**
     * Reads and checks at most {@code wanted} samples (whole samples only), as a player that takes only what is due
     * does. Do not mix with {@link #drain()} on one instance. Allocates nothing. @return the samples read
     */
    public long read(long wanted) {
        long before = samples;
        while (samples - before < wanted) {
            long bytes = Math.min(ring.readable() / Float.BYTES, wanted - (samples - before)) * Float.BYTES;
            if (bytes == 0) {
                break;
            }
            buffer.clear().limit((int) Math.min(buffer.capacity(), bytes));
            ring.read(buffer);
            buffer.flip();
            while (buffer.remaining() >= Float.BYTES) {
                check(buffer.getFloat());
            }
        }
        return samples - before;
    }

    private void check(float value) {
        if (firstMismatch < 0 && Math.abs(value - JackClient.sineSample(samples, frequency, sampleRate)) > TOLERANCE) {
            firstMismatch = samples;
            mismatchValue = value;
        }
        samples++;
    }

    /** Samples read so far. */
    public long samples() {
        return samples;
    }

    /** The index of the first sample that was not the sine's, or -1. */
    public long firstMismatch() {
        return firstMismatch;
    }

    /** What was read at {@link #firstMismatch()}. */
    public float mismatchValue() {
        return mismatchValue;
    }
}
