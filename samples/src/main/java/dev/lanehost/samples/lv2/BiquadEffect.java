package dev.lanehost.samples.lv2;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
    /** A tick this long after the one before was held off (its thread, or the timer thread, did not run): counted. */
    static final long LATE_TICK_NANOS = Duration.ofMillis(10).toNanos();
    private static final System.Logger LOG = System.getLogger(BiquadEffect.class.getName());
    private static final int CHUNK_FRAMES = 4096;

    private final SpscByteRing capture;
    private final SpscByteRing controls;
    private final SpscByteRing playback;
    private final BiquadLowPass filter;
    // From the instance's arena, freed with it: direct buffers would wait for a GC, which a plugin that allocates
    // nothing may never cause, so a host making instances without end would pile them up.
    private final MemorySegment scratch;
    private final MemorySegment recordMemory;
    private final ControlRecord pending = new ControlRecord();

    private boolean hasPending;
    private boolean held;
    private boolean active;
    private long processed;
    // Since activation: the gaps between ticks, for what a user asks after an underrun (was the effect held off?).
    private final TickGaps gaps = new TickGaps();

    /** @param arena the scratch memory's, open while the effect runs */
    BiquadEffect(SpscByteRing capture, SpscByteRing controls, SpscByteRing playback, BiquadLowPass filter,
                 Arena arena) {
        this.scratch = arena.allocate((long) CHUNK_FRAMES * FRAME_BYTES, Long.BYTES);
        this.recordMemory = arena.allocate(ControlRecord.LENGTH, Long.BYTES);
        this.capture = capture;
        this.controls = controls;
        this.playback = playback;
        this.filter = filter;
    }

    @Override
    public void started(ActorContext context) {
        context.every(TICK, this::tick); // one repeating timer for the actor's life: a tick allocates nothing
    }

    @Override
    public void receive(ActorContext context, Object message) {
        throw new IllegalArgumentException("the biquad effect takes no messages, got " + message.getClass().getName());
    }

    private void tick(ActorContext context) {
        if (active) {
            gaps.tick(context.nanoTime());
        }
        pump();
    }

    /** Step 1 at {@code now}: a fresh stream whose latency is {@code lead} frames. */
    void activate(long now, int lead, double cutoff, double q) {
        discard(capture);
        discard(controls);
        processed = 0;
        hasPending = false;
        held = false;
        gaps.reset(Math.round(lead * 1e9 / filter.sampleRate()), now);
        filter.set(cutoff, q);
        filter.reset();
        scratch.fill((byte) 0);
        for (int left = lead; left > 0; ) {
            int frames = Math.min(left, CHUNK_FRAMES);
            playback.write(scratch, 0, (long) frames * FRAME_BYTES);
            left -= frames;
        }
        active = true;
    }

    /** Step 4 at {@code now}; says in the log how late the ticks since activation came, if any was held off. */
    void stop(long now) {
        if (active) {
            gaps.tick(now);
            if (gaps.anyHeldOff()) {
                LOG.log(System.Logger.Level.INFO, "lanehost biquad: " + gaps.describe());
            }
        }
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
                controls.read(recordMemory, 0, ControlRecord.LENGTH);
                pending.readFrom(recordMemory);
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
            capture.read(scratch, 0, (long) chunk * FRAME_BYTES);
            for (int i = 0; i < chunk; i++) {
                scratch.setAtIndex(ValueLayout.JAVA_FLOAT, i, filter.process(scratch.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
            }
            playback.write(scratch, 0, (long) chunk * FRAME_BYTES);
            done += chunk;
        }
        processed += done;
        return done;
    }

    private void discard(SpscByteRing ring) {
        while (ring.readable() > 0) {
            ring.read(scratch, 0, scratch.byteSize());
        }
    }
}
