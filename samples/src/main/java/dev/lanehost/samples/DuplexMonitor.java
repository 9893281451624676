package dev.lanehost.samples;

import dev.lanehost.ring.SpscByteRing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The duplex sample's check and recorder: it reads what the duplex callback logged each period — per frame the input
 * it captured, the output it played, whether each went through a ring, and how many late frames the callback dropped
 * from the playback ring just before ({@code lanehost_duplex_frame} in {@code duplex_period.h}: 16 bytes) — and checks
 * every played frame against the effect replayed on the captured input by its own {@link GainLowPass}, bit for bit:
 *
 * <ul>
 *   <li>a frame played from the ring is either silence the effect inserted ({@link InsertedSilence}; it must be 0) or
 *       the effect's output for the next captured input not yet matched — captured frames come out in order, none
 *       lost, none twice;</li>
 *   <li>a frame not played from the ring is the callback's own silence (an underrun) and must be 0;</li>
 *   <li>a late frame the callback dropped takes its place in the playback stream like a played one (inserted silence,
 *       or the next captured input, through the reference effect so that it stays in step) but is not heard;</li>
 *   <li>the delay of a matched frame is its output slot less its input slot, in frames: the end-to-end latency. It
 *       grows by the silence played or inserted after the first match and shrinks by captured frames the capture ring
 *       dropped and by late frames the callback dropped, nothing else ({@link #expectedDelay()}).</li>
 * </ul>
 *
 * The first {@code wavFrames} output frames go into a WAV file. One thread calls {@link #drain()}.
 */
public final class DuplexMonitor {
    /** Bytes per monitor frame: input float, output float, flags, late frames dropped before it. */
    public static final int FRAME_BYTES = 16;
    static final int CAPTURED = 1;
    static final int PLAYED = 2;

    private final SpscByteRing monitor;
    private final InsertedSilence inserted;
    private final GainLowPass reference;
    private final WavWriter wav;
    private final long wavFrames;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(FRAME_BYTES * 4096).order(ByteOrder.nativeOrder());
    // Captured inputs not yet matched by a played frame: value and slot, in a circular buffer.
    private final float[] pendingValues;
    private final long[] pendingSlots;
    private long pendingHead;
    private long pendingTail;
    private long lastInputSlot;
    private long streamPosition; // playback-stream frames the callback took: played and dropped

    private volatile long slots;
    private volatile long captured;
    private volatile long played;
    private volatile long matched;
    private volatile long insertedPlayed;
    private volatile long underrunFrames;
    private volatile long mismatches;
    private volatile long firstMismatchSlot = -1;
    private volatile String firstMismatch;
    private volatile long firstDelay = -1;
    private volatile long lastDelay = -1;
    private volatile long minDelay = Long.MAX_VALUE;
    private volatile long maxDelay = -1;
    private volatile long silenceAfterFirst;
    private volatile long droppedAfterFirst;
    private volatile long droppedLate;
    private volatile long droppedLateAfterFirst;
    private volatile long expectedDelay = -1;
    private volatile float peakOutput;

    /**
     * @param maxInFlightFrames the most captured frames that can wait to be played (the capture and playback rings'
     *                          capacities in frames, together)
     * @param wav               where the output goes, or null
     * @param wavFrames         how many output frames the WAV file takes at most
     */
    public DuplexMonitor(SpscByteRing monitor, InsertedSilence inserted, GainLowPass reference, int maxInFlightFrames,
                         WavWriter wav, long wavFrames) {
        if (maxInFlightFrames <= 0) {
            throw new IllegalArgumentException("frames in flight must be positive, got " + maxInFlightFrames);
        }
        this.monitor = monitor;
        this.inserted = inserted;
        this.reference = reference;
        this.wav = wav;
        this.wavFrames = wavFrames;
        this.pendingValues = new float[maxInFlightFrames];
        this.pendingSlots = new long[maxInFlightFrames];
    }

    /** Reads and checks every whole monitor frame there is. @return frames read */
    public long drain() {
        long before = slots;
        while (true) {
            long bytes = monitor.readable() / FRAME_BYTES * FRAME_BYTES;
            if (bytes == 0) {
                return slots - before;
            }
            buffer.clear().limit((int) Math.min(bytes, buffer.capacity() / FRAME_BYTES * FRAME_BYTES));
            monitor.read(buffer);
            buffer.flip();
            while (buffer.remaining() >= FRAME_BYTES) {
                frame(buffer.getFloat(), buffer.getFloat(), buffer.getInt(), Integer.toUnsignedLong(buffer.getInt()));
            }
        }
    }

    private void frame(float in, float out, int flags, long droppedBefore) {
        long slot = slots;
        boolean started = firstDelay >= 0;
        for (long i = 0; i < droppedBefore; i++) {
            dropLate(slot, started);
        }
        if ((flags & CAPTURED) != 0) {
            if (pendingTail - pendingHead == pendingValues.length) {
                mismatch(slot, "more captured frames waiting than the rings can hold");
            } else {
                int at = (int) (pendingTail++ % pendingValues.length);
                pendingValues[at] = in;
                pendingSlots[at] = slot;
                captured++;
            }
        }
        if ((flags & PLAYED) != 0) {
            played++;
            if (inserted.isInserted(streamPosition++)) {
                insertedPlayed++;
                if (started) {
                    silenceAfterFirst++;
                }
                if (out != 0f) {
                    mismatch(slot, "inserted silence played as " + out);
                }
            } else if (pendingTail == pendingHead) {
                mismatch(slot, "played " + out + " with no captured input left to have made it");
            } else {
                int at = (int) (pendingHead++ % pendingValues.length);
                float expected = reference.process(pendingValues[at]);
                if (Float.floatToRawIntBits(out) != Float.floatToRawIntBits(expected)) {
                    mismatch(slot, "played " + out + ", the effect of input " + pendingValues[at] + " (slot " + pendingSlots[at]
                            + ") is " + expected);
                }
                long delay = slot - pendingSlots[at];
                if (firstDelay < 0) {
                    firstDelay = delay;
                } else {
                    countCaptureDrops(pendingSlots[at]);
                }
                lastInputSlot = pendingSlots[at];
                lastDelay = delay;
                expectedDelay = firstDelay + silenceAfterFirst - droppedAfterFirst - droppedLateAfterFirst;
                minDelay = Math.min(minDelay, delay);
                maxDelay = Math.max(maxDelay, delay);
                peakOutput = Math.max(peakOutput, Math.abs(out));
                matched++;
            }
        } else {
            underrunFrames++;
            if (started) {
                silenceAfterFirst++;
            }
            if (out != 0f) {
                mismatch(slot, "underrun silence played as " + out);
            }
        }
        if (wav != null && slot < wavFrames) {
            try {
                wav.write(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        slots = slot + 1;
    }

    /** A late frame the callback dropped before {@code slot} played: the next playback-stream frame, not heard. */
    private void dropLate(long slot, boolean started) {
        droppedLate++;
        if (started) {
            droppedLateAfterFirst++;
        }
        if (inserted.isInserted(streamPosition++)) {
            if (started) {
                silenceAfterFirst++; // it was in the stream ahead of the inputs, as if played, then taken back
            }
            return;
        }
        if (pendingTail == pendingHead) {
            mismatch(slot, "dropped a late frame with no captured input left to have made it");
            return;
        }
        int at = (int) (pendingHead++ % pendingValues.length);
        reference.process(pendingValues[at]); // the effect processed it: the reference filter stays in step
        if (started) {
            countCaptureDrops(pendingSlots[at]);
        }
        lastInputSlot = pendingSlots[at];
    }

    /** Inputs the capture ring had no room for, between the last matched or dropped input and {@code inputSlot}. */
    private void countCaptureDrops(long inputSlot) {
        droppedAfterFirst += inputSlot - lastInputSlot - 1;
    }

    private void mismatch(long slot, String what) {
        if (mismatches++ == 0) {
            firstMismatchSlot = slot;
            firstMismatch = "slot " + slot + ": " + what;
        }
    }

    /** Closes the WAV file, if any. */
    public void closeWav() throws IOException {
        if (wav != null) {
            wav.close();
        }
    }

    /** Periods' frames read: one a frame slot, input and output. */
    public long slots() {
        return slots;
    }

    /** Frames whose input went into the capture ring. */
    public long captured() {
        return captured;
    }

    /** Frames played from the playback ring (effect output and inserted silence). */
    public long played() {
        return played;
    }

    /** Played frames that matched a captured input (and were checked against it). */
    public long matched() {
        return matched;
    }

    /** The largest magnitude among the matched frames: how loud the checked output was. */
    public float peakOutput() {
        return peakOutput;
    }

    /** Played frames that were silence the effect inserted. */
    public long insertedPlayed() {
        return insertedPlayed;
    }

    /** Frames the callback filled with silence because the playback ring had run dry. */
    public long underrunFrames() {
        return underrunFrames;
    }

    /** Late frames the callback dropped to win back underrun silence (its {@code dropped_late_frames}, as logged). */
    public long droppedLate() {
        return droppedLate;
    }

    /** Frames that broke the check; 0 is the result to want. */
    public long mismatches() {
        return mismatches;
    }

    /** The first frame that broke the check, or null. */
    public String firstMismatch() {
        return firstMismatch;
    }

    /** Frames between a captured frame and its output: the first matched frame's, -1 before. */
    public long firstDelay() {
        return firstDelay;
    }

    public long lastDelay() {
        return lastDelay;
    }

    public long minDelay() {
        return minDelay == Long.MAX_VALUE ? -1 : minDelay;
    }

    public long maxDelay() {
        return maxDelay;
    }

    /** What the latest delay must be, counted up to the latest matched frame: the first, plus the silence played
     *  since, less the input frames the capture ring dropped between the matched ones and the late frames the callback
     *  dropped. The callback plays from the ring only once it has dropped every late frame it owed, so with a fixed
     *  lead and no capture overrun that is the first delay again: the delay holds. -1 before a frame matched. */
    public long expectedDelay() {
        return expectedDelay;
    }
}
