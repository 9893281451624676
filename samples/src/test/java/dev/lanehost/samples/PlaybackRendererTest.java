package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The renderer keeps the ring at its lead in whole frames, the stream continuous, and grows an adaptive lead after a late tick. */
class PlaybackRendererTest {
    private static final int FRAME_BYTES = 8; // stereo float
    private static final int PERIOD_FRAMES = 128;
    private static final long PERIOD_NANOS = 2_666_667;
    private static final Duration TICK = Duration.ofMillis(1);

    /** Frame i carries the value i in both channels. */
    private static final PlaybackRenderer.Source COUNTING = (out, index, frames) -> {
        for (int i = 0; i < frames; i++) {
            out.putFloat(index + i).putFloat(index + i);
        }
    };

    /** Plays one period as the native callback would: whole frames, checking each carries the next index. */
    private static long play(SpscByteRing ring, long nextIndex) {
        ByteBuffer period = ByteBuffer.allocate(PERIOD_FRAMES * FRAME_BYTES).order(ByteOrder.nativeOrder());
        int whole = (int) Math.min(PERIOD_FRAMES, ring.readable() / FRAME_BYTES);
        period.limit(whole * FRAME_BYTES);
        assertEquals(whole * FRAME_BYTES, ring.read(period));
        period.flip();
        for (int i = 0; i < whole; i++) {
            assertEquals((float) nextIndex, period.getFloat(), "frame " + nextIndex);
            period.getFloat();
            nextIndex++;
        }
        return nextIndex;
    }

    @Test
    void theRingIsToppedUpToTheLeadInWholeFramesAndTheStreamIsContinuous() {
        try (SpscByteRing ring = SpscByteRing.allocate(16 * 1024);
             ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            PlaybackLead lead = PlaybackLead.fixed(PERIOD_NANOS, TICK.toNanos(), 3);
            PlaybackRenderer renderer = new PlaybackRenderer(ring, FRAME_BYTES, PERIOD_FRAMES, TICK, lead, null, COUNTING);
            runtime.spawn("renderer", () -> renderer);
            runtime.runUntilIdle(Duration.ofMillis(1));
            assertEquals(3L * PERIOD_FRAMES * FRAME_BYTES, ring.readable(), "started at the lead");
            long next = 0;
            for (int period = 0; period < 200; period++) {
                next = play(ring, next);
                runtime.runUntilIdle(Duration.ofMillis(3)); // three ticks per played period
                assertEquals(3L * PERIOD_FRAMES * FRAME_BYTES, ring.readable(), "period " + period);
            }
            assertEquals(200L * PERIOD_FRAMES, next);
            assertEquals(0, ring.readable() % FRAME_BYTES);
            assertEquals(203L * PERIOD_FRAMES, renderer.framesRendered());
        }
    }

    @Test
    void aLateTickGrowsAnAdaptiveLead() {
        try (SpscByteRing ring = SpscByteRing.allocate(64 * 1024);
             ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            PlaybackLead lead = PlaybackLead.adaptive(PERIOD_NANOS, TICK.toNanos(), 2, 16);
            PlaybackRenderer renderer = new PlaybackRenderer(ring, FRAME_BYTES, PERIOD_FRAMES, TICK, lead, null, COUNTING);
            runtime.spawn("renderer", () -> renderer);
            runtime.runUntilIdle(Duration.ofMillis(10));
            assertEquals(2, lead.periods(), "on-time ticks: the minimum");
            runtime.advance(Duration.ofMillis(12)); // the renderer's thread stalled: the tick comes 11 ms late
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(6, lead.periods(), lead.reason()); // ceil((11 + 1) / 2.67) + 1
            assertEquals(6L * PERIOD_FRAMES * FRAME_BYTES, ring.readable(), "and the ring was topped up to it at once");
            long ticks = renderer.ticks();
            runtime.runUntilIdle(Duration.ofMillis(20));
            assertEquals(ticks + 20, renderer.ticks(), "back on schedule");
            assertEquals(6, lead.periods(), "the stall stays in the window");
            runtime.runUntilIdle(Duration.ofMillis(2L * PlaybackLead.WINDOW));
            assertEquals(2, lead.periods(), "on-time ticks after the stall do not look late: once it leaves the window, the lead shrinks");
        }
    }

    /**
     * SINGLE_THREAD, so the renderer's turns and the playing both run on this thread and no timer thread contends:
     * counted in rounds of ticks, and the first of many rounds that allocates nothing passes (the JIT needs rounds
     * to compile the path; a count, never a time).
     */
    @Test
    void aSteadyTickAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        ByteBuffer period = ByteBuffer.allocateDirect(PERIOD_FRAMES * FRAME_BYTES);
        try (SpscByteRing ring = SpscByteRing.allocate(16 * 1024);
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            PlaybackRenderer renderer = new PlaybackRenderer(ring, FRAME_BYTES, PERIOD_FRAMES, TICK,
                    PlaybackLead.adaptive(PERIOD_NANOS, TICK.toNanos(), 2, 8), null, COUNTING);
            runtime.spawn("renderer", () -> renderer);
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < 40 && allocated != 0; round++) {
                long ticksAtStart = renderer.ticks();
                long before = threads.getCurrentThreadAllocatedBytes();
                while (renderer.ticks() < ticksAtStart + 100) {
                    runtime.runUntilIdle(Duration.ZERO); // an enum back, where drain() returns a new DrainResult
                    if (ring.readable() >= period.capacity()) { // play a period, as the native callback would
                        period.clear();
                        ring.read(period);
                    }
                }
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }
            assertEquals(0, allocated, "bytes allocated by 100 ticks, in the last of the rounds");
        }
    }

    @Test
    void aLeadThatDoesNotFitTheRingIsRefused() {
        try (SpscByteRing ring = SpscByteRing.allocate(1024)) {
            assertThrows(IllegalArgumentException.class, () -> new PlaybackRenderer(ring, FRAME_BYTES, PERIOD_FRAMES, TICK,
                    PlaybackLead.fixed(PERIOD_NANOS, TICK.toNanos(), 3), null, COUNTING));
        }
    }

    @Test
    void gcPausesListenToTheCollectorsPauseBeans() {
        try (GcPauses pauses = new GcPauses()) {
            assertTrue(pauses.sources() > 0, "no GC bean to listen to");
            pauses.takeLongest();
            assertEquals(0, pauses.takeLongest(), "taking resets");
        }
    }
}
