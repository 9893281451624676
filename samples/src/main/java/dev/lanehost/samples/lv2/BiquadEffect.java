package dev.lanehost.samples.lv2;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.affinity.SchedClass;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

/**
 * The Java half of one plugin instance: an actor that moves captured frames through {@link BiquadLowPass} into the
 * playback ring, applying each control record at its frame.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code activate} (a gate call from the plugin's {@code activate()}, which first stops the effect and empties
 *       the playback ring it consumes) empties the capture and controls rings, resets the filter and primes the
 *       playback ring with {@code lead} frames of silence: from then on the frames in flight are the lead, the
 *       latency the plugin reports.</li>
 *   <li>Every tick, and every {@code pump} gate call (an offline host waiting for output), {@link #pump} takes the
 *       capture ring's fill <em>first</em>, then reads control records: the plugin writes a record before the frames
 *       it applies to, so every record about the frames counted is already visible.</li>
 *   <li>A record with {@code hold} stops the processing at its frame (a stalled effect, on purpose: the forced
 *       underrun test); the next record that clears it lets it go on at once.</li>
 *   <li>{@code stop} (the plugin's {@code deactivate()} and {@code cleanup()}) ends the processing; the ticks then
 *       do nothing until the next {@code activate}.</li>
 * </ol>
 * Every ring side and field here is touched in this actor's turns only, so on one thread at a time.
 */
final class BiquadEffect implements Behavior {
    static final int FRAME_BYTES = Float.BYTES;
    /**
     * How often the effect looks at the capture ring: 1 ms is well under the smallest lead the plugin allows
     * (64 frames is 1.3 ms at 48 kHz), and a tick that finds nothing costs microseconds.
     */
    static final Duration TICK = Duration.ofMillis(1);
    private static final int CHUNK_FRAMES = 4096;
    /** The lowest real-time priority: below any real-time audio thread (JACK's clients run at 5 below its -P). */
    private static final int REALTIME_PRIORITY = 1;
    private static final System.Logger LOG = System.getLogger("dev.lanehost.samples.lv2");

    private final String name;
    private final SpscByteRing capture;
    private final SpscByteRing controls;
    private final SpscByteRing playback;
    private final BiquadLowPass filter;
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(CHUNK_FRAMES * FRAME_BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer recordBuffer = ByteBuffer.allocateDirect(ControlRecord.LENGTH).order(ByteOrder.nativeOrder());
    private final ControlRecord pending = new ControlRecord();

    private boolean hasPending;
    private boolean held;
    private boolean active;
    private long processed;

    BiquadEffect(String name, SpscByteRing capture, SpscByteRing controls, SpscByteRing playback, BiquadLowPass filter) {
        this.name = name;
        this.capture = capture;
        this.controls = controls;
        this.playback = playback;
        this.filter = filter;
    }

    @Override
    public void started(ActorContext context) {
        raisePriority();
        context.every(TICK, this::tick); // one repeating timer for the actor's life: a tick allocates nothing
    }

    @Override
    public void receive(ActorContext context, Object message) {
        throw new IllegalArgumentException("the biquad effect takes no messages, got " + message.getClass().getName());
    }

    private void tick(ActorContext context) {
        pump();
    }

    /** Step 1: a fresh stream whose latency is {@code lead} frames. */
    void activate(int lead, double cutoff, double q) {
        discard(capture);
        discard(controls);
        processed = 0;
        hasPending = false;
        held = false;
        filter.set(cutoff, q);
        filter.reset();
        scratch.clear();
        while (scratch.hasRemaining()) {
            scratch.putFloat(0f);
        }
        for (int left = lead; left > 0; ) {
            int frames = Math.min(left, CHUNK_FRAMES);
            scratch.clear().limit(frames * FRAME_BYTES);
            playback.write(scratch);
            left -= frames;
        }
        active = true;
    }

    /** Step 4. */
    void stop() {
        active = false;
    }

    /** Step 2: processes every frame captured so far, up to a hold. @return frames processed since activation */
    long pump() {
        if (!active) {
            return processed;
        }
        long end = processed + capture.readable() / FRAME_BYTES;
        while (processed < end) {
            if (!hasPending && controls.readable() >= ControlRecord.LENGTH) {
                recordBuffer.clear();
                controls.read(recordBuffer);
                pending.readFrom(recordBuffer);
                hasPending = true;
            }
            if (held && hasPending && !pending.hold) {
                held = false; // step 3: a release applies as soon as it is seen, its settings at their frame
            }
            if (held) {
                break;
            }
            long until = end;
            if (hasPending) {
                if (pending.position <= processed) {
                    filter.set(pending.cutoff, pending.q);
                    held = pending.hold;
                    hasPending = false;
                    continue;
                }
                until = Math.min(until, pending.position);
            }
            if (process(until - processed) == 0) {
                break; // the playback ring is full: the plugin has stopped reading; the next tick goes on
            }
        }
        return processed;
    }

    private long process(long wanted) {
        long frames = Math.min(wanted, playback.writable() / FRAME_BYTES);
        long done = 0;
        while (done < frames) {
            int chunk = (int) Math.min(frames - done, CHUNK_FRAMES);
            scratch.clear().limit(chunk * FRAME_BYTES);
            capture.read(scratch);
            for (int i = 0; i < chunk * FRAME_BYTES; i += FRAME_BYTES) {
                scratch.putFloat(i, filter.process(scratch.getFloat(i)));
            }
            scratch.flip();
            playback.write(scratch);
            done += chunk;
        }
        processed += done;
        return done;
    }

    private void discard(SpscByteRing ring) {
        while (ring.readable() > 0) {
            scratch.clear();
            ring.read(scratch);
        }
    }

    /**
     * Real-time priority for the effect's thread where the system allows it, so that ordinary threads cannot hold it
     * off the CPU for longer than the lead; said in the log when it does not.
     */
    private void raisePriority() {
        PriorityResult result = PriorityPolicy.realtime(SchedClass.FIFO, REALTIME_PRIORITY, 0)
                .applyToCurrentThread(Affinity.system());
        if (result.isApplied()) {
            LOG.log(System.Logger.Level.INFO, "lanehost LV2 " + name + ": the effect's thread runs SCHED_FIFO "
                    + REALTIME_PRIORITY + ", below the host's real-time audio thread");
        } else {
            LOG.log(System.Logger.Level.WARNING, "lanehost LV2 " + name + ": the effect's thread keeps its normal "
                    + "priority (" + result + "); a loaded machine may then hold it off the CPU longer than the lead");
        }
    }
}
