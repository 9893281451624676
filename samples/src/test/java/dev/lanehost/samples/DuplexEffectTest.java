package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The effect actor, with the callback played by hand: the lead primed, frames moved through the effect, no allocation. */
class DuplexEffectTest {
    private static final int PERIOD = 128;
    private static final long PERIOD_NANOS = 2_666_667;
    private static final Duration TICK = Duration.ofMillis(1);

    /** One callback period: {@code period} captured frames in, one period played out (whole frames, as C does). */
    private static void callback(SpscByteRing capture, SpscByteRing playback, ByteBuffer in, ByteBuffer out) {
        in.clear();
        capture.write(in);
        out.clear().limit((int) Math.min(out.capacity(), playback.readable()));
        playback.read(out);
        out.flip();
    }

    @Test
    void theLeadIsPrimedWithSilenceAndEveryCapturedFrameComesOutThroughTheEffect() {
        try (SpscByteRing capture = SpscByteRing.allocate(64 * 1024);
             SpscByteRing playback = SpscByteRing.allocate(64 * 1024);
             InsertedSilence inserted = new InsertedSilence();
             ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            DuplexEffect effect = new DuplexEffect(capture, playback, inserted, GainLowPass.standard(),
                    PlaybackLead.fixed(PERIOD_NANOS, TICK.toNanos(), 3), null, PERIOD, TICK);
            runtime.spawn("effect", () -> effect);
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(3L * PERIOD * Float.BYTES, playback.readable(), "primed with the lead");
            assertEquals(3L * PERIOD, effect.silenceFrames());
            ByteBuffer in = ByteBuffer.allocate(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
            ByteBuffer out = ByteBuffer.allocate(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
            GainLowPass reference = GainLowPass.standard();
            long next = 0;
            for (int period = 0; period < 50; period++) {
                for (int i = 0; i < PERIOD; i++) {
                    in.putFloat(i * Float.BYTES, (float) Math.sin(0.01 * (period * PERIOD + i)));
                }
                callback(capture, playback, in, out);
                for (int i = 0; i < PERIOD; i++) {
                    float played = out.getFloat();
                    if (period < 3) {
                        assertEquals(0f, played, "the primed lead is silence");
                    } else {
                        assertEquals(reference.process((float) Math.sin(0.01 * next++)), played, "frame " + (period * PERIOD + i));
                    }
                }
                runtime.runUntilIdle(Duration.ofMillis(3)); // a period is 2.67 ms: the effect ticks in between
                assertEquals(3L * PERIOD * Float.BYTES, playback.readable() + capture.readable(), "frames in flight stay at the lead");
            }
            assertEquals(50L * PERIOD, effect.framesProcessed());
            assertEquals(1, effect.insertions(), "silence went in once, to prime the lead");
        }
    }

    @Test
    void aHeldEffectMovesNothingAndAFullCaptureRingsDropsAreMadeUpWithSilence() {
        try (SpscByteRing capture = SpscByteRing.allocate(1024); // two periods
             SpscByteRing playback = SpscByteRing.allocate(64 * 1024);
             InsertedSilence inserted = new InsertedSilence();
             ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            DuplexEffect effect = new DuplexEffect(capture, playback, inserted, GainLowPass.standard(),
                    PlaybackLead.fixed(PERIOD_NANOS, TICK.toNanos(), 2), null, PERIOD, TICK);
            runtime.spawn("effect", () -> effect);
            runtime.runUntilIdle(Duration.ZERO);
            effect.hold(true);
            ByteBuffer in = ByteBuffer.allocate(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
            ByteBuffer out = ByteBuffer.allocate(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
            for (int period = 0; period < 4; period++) { // the capture ring takes two periods; two are dropped
                callback(capture, playback, in, out);
                runtime.runUntilIdle(Duration.ofMillis(3));
            }
            assertEquals(0, effect.framesProcessed(), "held: nothing moved");
            assertEquals(0, playback.readable(), "the callback played the lead and ran dry");
            effect.hold(false);
            runtime.runUntilIdle(Duration.ofMillis(1));
            assertEquals(2L * PERIOD, effect.framesProcessed());
            assertEquals(2L * PERIOD * Float.BYTES, playback.readable(), "what the capture ring kept is in flight: the lead, no silence needed");
            assertEquals(1, effect.insertions());
        }
    }

    /**
     * SINGLE_THREAD, so the effect's turns and the hand-played callback both run on this thread: counted in rounds of
     * ticks, and the first of many rounds that allocates nothing passes (the JIT needs rounds to compile the path).
     */
    @Test
    void aSteadyTickAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        ByteBuffer in = ByteBuffer.allocateDirect(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
        ByteBuffer out = ByteBuffer.allocateDirect(PERIOD * Float.BYTES).order(ByteOrder.nativeOrder());
        try (SpscByteRing capture = SpscByteRing.allocate(64 * 1024);
             SpscByteRing playback = SpscByteRing.allocate(64 * 1024);
             InsertedSilence inserted = new InsertedSilence();
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            DuplexEffect effect = new DuplexEffect(capture, playback, inserted, GainLowPass.standard(),
                    PlaybackLead.adaptive(PERIOD_NANOS, TICK.toNanos(), 2, 8), null, PERIOD, TICK);
            runtime.spawn("effect", () -> effect);
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < 40 && allocated != 0; round++) {
                long ticksAtStart = effect.ticks();
                long before = threads.getCurrentThreadAllocatedBytes();
                while (effect.ticks() < ticksAtStart + 100) {
                    runtime.runUntilIdle(Duration.ZERO);
                    if (capture.readable() == 0) {
                        callback(capture, playback, in, out);
                    }
                }
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }
            assertEquals(0, allocated, "bytes allocated by 100 ticks, in the last of the rounds");
        }
    }
}
