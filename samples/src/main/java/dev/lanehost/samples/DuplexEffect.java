package dev.lanehost.samples;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Timer;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

/**
 * The Java half of the duplex sample: an actor that ticks on a repeating timer ({@code ActorContext.every}: one timer
 * for its life, nothing allocated per tick) and moves every captured frame through the effect into the playback
 * ring, where the native callback plays it.
 *
 * <p><b>The lead.</b> Frames in flight — in the capture ring plus in the playback ring — are the latency between a
 * frame's capture and its playing, and they are what lets the effect stall without the callback running dry: a
 * callback period adds a period to the capture ring and takes one from the playback ring, and moving frames from one
 * to the other changes neither sum. So each tick first tops the frames in flight up to the lead its
 * {@link PlaybackLead} asks for, with silence (the first tick primes the whole lead; later ones replace frames a full
 * capture ring dropped, or grow an adaptive lead), and records each insertion in {@link InsertedSilence} for the
 * check. It never drops captured input itself, so an adaptive lead that shrinks leaves the latency where it was. A
 * playback underrun (silence the callback played because the ring ran dry) adds its frames to the frames in flight,
 * but only until the effect catches up: the callback owes those frames and drops the late ones it finds in the
 * playback ring, counted ({@code duplex_period.h}), so the frames in flight, and the delay, are the lead again. Like
 * {@link PlaybackRenderer}, it tells the lead how late each tick woke, and the GC pauses {@link GcPauses} reports.
 *
 * <p>One float (native order) a frame, mono. Turns only, except the counters, which are published for other threads.
 */
public final class DuplexEffect implements Behavior {
    private static final int FRAME_BYTES = Float.BYTES;
    private static final int CHUNK_FRAMES = 4096;

    private final SpscByteRing capture;
    private final SpscByteRing playback;
    private final InsertedSilence inserted;
    private final GainLowPass effect;
    private final PlaybackLead lead;
    private final GcPauses gcPauses;
    private final int periodFrames;
    private final Duration tick;
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(CHUNK_FRAMES * FRAME_BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer silence = ByteBuffer.allocateDirect(CHUNK_FRAMES * FRAME_BYTES).order(ByteOrder.nativeOrder());

    private Timer ticker;
    private long lastTickNanos;
    private boolean finished;
    private volatile boolean held;
    private volatile Thread turnThread;
    // Written in turns only; volatile so that other threads (status lines, the check, tests) see recent values.
    private volatile long framesProcessed;
    private volatile long framesWritten;
    private volatile long silenceFrames;
    private volatile long insertions;
    private volatile long ticks;
    private volatile int leadPeriods;
    private volatile long maxLateNanos;

    /**
     * @param gcPauses the JVM's GC pauses for an adaptive lead, or null
     */
    public DuplexEffect(SpscByteRing capture, SpscByteRing playback, InsertedSilence inserted, GainLowPass effect,
                        PlaybackLead lead, GcPauses gcPauses, int periodFrames, Duration tick) {
        if (periodFrames <= 0) {
            throw new IllegalArgumentException("the period must be positive, got " + periodFrames + " frames");
        }
        if (lead.bytes((long) FRAME_BYTES * periodFrames) > playback.capacity()) {
            throw new IllegalArgumentException("a lead of " + lead.periods() + " periods does not fit a playback ring of "
                    + playback.capacity() + " bytes");
        }
        this.capture = capture;
        this.playback = playback;
        this.inserted = inserted;
        this.effect = effect;
        this.lead = lead;
        this.gcPauses = gcPauses;
        this.periodFrames = periodFrames;
        this.tick = tick;
    }

    @Override
    public void started(ActorContext context) {
        turnThread = Thread.currentThread();
        lastTickNanos = context.nanoTime();
        keepLead();
        ticker = context.every(tick, this::tick);
    }

    @Override
    public void receive(ActorContext context, Object message) {
        throw new IllegalArgumentException("the duplex effect takes no messages, got " + message);
    }

    private void tick(ActorContext context) {
        ticks++;
        long now = context.nanoTime();
        // The gap since the last tick beyond one tick is how long the effect could not run.
        long late = Math.max(0, now - lastTickNanos - tick.toNanos());
        lead.observePause(late);
        if (late > maxLateNanos) {
            maxLateNanos = late;
        }
        lastTickNanos = now;
        if (gcPauses != null) {
            long pause = gcPauses.takeLongest();
            if (pause > 0) {
                lead.observePause(pause);
            }
        }
        if (held || finished) {
            return;
        }
        keepLead();
        move(Long.MAX_VALUE);
    }

    /** Tops the frames in flight up to the lead with silence, recorded for the check. */
    private void keepLead() {
        int periods = lead.periods();
        leadPeriods = periods;
        // Playback first, capture second: a callback between the two reads then makes the sum too large (it added to
        // the capture ring after the playback ring was read), never too small, so no silence goes in that is not needed.
        long inFlight = (playback.readable() + capture.readable()) / FRAME_BYTES;
        long missing = Math.min((long) periods * periodFrames - inFlight, playback.writable() / FRAME_BYTES);
        if (missing <= 0) {
            return;
        }
        inserted.record(framesWritten, missing);
        long left = missing;
        while (left > 0) {
            int frames = (int) Math.min(left, CHUNK_FRAMES);
            silence.clear().limit(frames * FRAME_BYTES);
            playback.write(silence);
            left -= frames;
        }
        framesWritten += missing;
        silenceFrames += missing;
        insertions++;
    }

    /** Moves up to {@code wanted} captured frames through the effect into the playback ring (what the playback ring takes). */
    private void move(long wanted) {
        long frames = Math.min(wanted, Math.min(capture.readable(), playback.writable()) / FRAME_BYTES);
        while (frames > 0) {
            int chunk = (int) Math.min(frames, CHUNK_FRAMES);
            scratch.clear().limit(chunk * FRAME_BYTES);
            capture.read(scratch);
            for (int i = 0; i < chunk * FRAME_BYTES; i += FRAME_BYTES) {
                scratch.putFloat(i, effect.process(scratch.getFloat(i)));
            }
            scratch.flip();
            playback.write(scratch);
            frames -= chunk;
            framesProcessed += chunk;
            framesWritten += chunk;
        }
    }

    /**
     * Stops the ticks and moves every captured frame left into the playback ring. Call it in one of this actor's
     * turns (a gate call's handler), after the callback stopped.
     *
     * @return the frames processed in all
     */
    public long finish() {
        if (!finished) {
            finished = true;
            if (ticker != null) {
                ticker.cancel();
            }
            move(Long.MAX_VALUE);
        }
        return framesProcessed;
    }

    /**
     * Holds the effect (true) or lets it run again (false): a held effect moves nothing, as if its thread were stalled,
     * and the callback plays what is left and then silence. For tests and demonstrations. Any thread.
     */
    public void hold(boolean hold) {
        held = hold;
    }

    /** Captured frames that went through the effect into the playback ring. */
    public long framesProcessed() {
        return framesProcessed;
    }

    /** Frames written into the playback ring: processed frames and inserted silence. */
    public long framesWritten() {
        return framesWritten;
    }

    /** Frames of silence the effect inserted to keep its lead. */
    public long silenceFrames() {
        return silenceFrames;
    }

    public long insertions() {
        return insertions;
    }

    public long ticks() {
        return ticks;
    }

    /** The lead the latest tick kept, in periods. */
    public int leadPeriods() {
        return leadPeriods;
    }

    /** The longest a tick came later than one tick after the one before: the effect's worst stall, GC or scheduling. */
    public long maxLateNanos() {
        return maxLateNanos;
    }

    /** The lead's reason, as its last tick left it (read it after {@link #finish}, or for a status line). */
    public String leadReason() {
        return lead.reason();
    }

    /** The thread its turns ran on (a worker), or null before it started. */
    public Thread turnThread() {
        return turnThread;
    }
}
