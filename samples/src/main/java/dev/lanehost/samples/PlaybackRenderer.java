package dev.lanehost.samples;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

/**
 * The Java half of playback: an actor that ticks on a repeating timer and renders audio ahead into a ring that a
 * native playback callback plays ({@code lanehost_ring_read_frames}: whole frames, then silence). Each tick tops the
 * ring up to the lead its {@link PlaybackLead} asks for, and tells the lead how late the tick woke (a scheduling
 * stall, or a GC pause the {@link GcPauses} feed reports), so an adaptive lead grows before the callback starves.
 *
 * <p>The renderer writes whole frames only. It allocates nothing per tick: one scratch buffer of a period, reused.
 */
public final class PlaybackRenderer implements Behavior {
    /** Renders {@code frames} frames, starting at frame {@code index} of the stream, into {@code out} (its position advances). */
    @FunctionalInterface
    public interface Source {
        void render(ByteBuffer out, long index, int frames);
    }

    private final SpscByteRing ring;
    private final int frameBytes;
    private final int periodFrames;
    private final Duration tick;
    private final PlaybackLead lead;
    private final GcPauses gcPauses;
    private final Source source;
    private final ByteBuffer scratch;
    private long framesRendered;
    private long ticks;
    private long lastTickNanos;
    private long maxFillBytes;

    public PlaybackRenderer(SpscByteRing ring, int frameBytes, int periodFrames, Duration tick, PlaybackLead lead,
                            GcPauses gcPauses, Source source) {
        if (frameBytes <= 0 || periodFrames <= 0) {
            throw new IllegalArgumentException("frame size and period must be positive; got " + frameBytes + " bytes, " + periodFrames + " frames");
        }
        if (lead.bytes((long) frameBytes * periodFrames) > ring.capacity()) {
            throw new IllegalArgumentException("a lead of " + lead.periods() + " periods does not fit a ring of " + ring.capacity() + " bytes");
        }
        this.ring = ring;
        this.frameBytes = frameBytes;
        this.periodFrames = periodFrames;
        this.tick = tick;
        this.lead = lead;
        this.gcPauses = gcPauses;
        this.source = source;
        this.scratch = ByteBuffer.allocateDirect(frameBytes * periodFrames).order(ByteOrder.nativeOrder());
    }

    @Override
    public void started(ActorContext context) {
        lastTickNanos = context.nanoTime();
        topUp();
        context.every(tick, this::tick);
    }

    @Override
    public void receive(ActorContext context, Object message) {
    }

    private void tick(ActorContext context) {
        ticks++;
        // The gap since the last tick beyond one tick is how long the renderer could not run. (The timer skips
        // the deadlines a stall missed, so the next gap is a tick again, or less.)
        long now = context.nanoTime();
        lead.observePause(Math.max(0, now - lastTickNanos - tick.toNanos()));
        lastTickNanos = now;
        if (gcPauses != null) {
            long pause = gcPauses.takeLongest();
            if (pause > 0) {
                lead.observePause(pause);
            }
        }
        topUp();
    }

    /** Renders whole periods (the last one partial, in whole frames) until the ring holds the lead. */
    private void topUp() {
        long target = lead.bytes((long) frameBytes * periodFrames);
        long fill = ring.readable();
        maxFillBytes = Math.max(maxFillBytes, fill);
        while (fill < target) {
            int frames = (int) Math.min(periodFrames, (target - fill) / frameBytes);
            if (frames == 0) {
                break;
            }
            scratch.clear();
            source.render(scratch, framesRendered, frames);
            scratch.flip();
            int written = ring.write(scratch);
            framesRendered += written / frameBytes;
            fill += written;
            if (written < frames * frameBytes) {
                break; // the callback is behind: the ring is full
            }
        }
    }

    public long framesRendered() {
        return framesRendered;
    }

    public long ticks() {
        return ticks;
    }

    /** The most the ring held when a tick looked. */
    public long maxFillBytes() {
        return maxFillBytes;
    }
}
