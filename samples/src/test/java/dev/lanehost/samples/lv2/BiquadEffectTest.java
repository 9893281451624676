package dev.lanehost.samples.lv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The effect's turns driven by hand on the test's thread, with the plugin's side of the rings played by the test:
 * the lead primed, control records applied at their exact frame, a hold obeyed at its frame and released.
 */
class BiquadEffectTest {
    private static final double RATE = 48000;
    private Arena arena;
    private SpscByteRing capture;
    private SpscByteRing controls;
    private SpscByteRing playback;
    private BiquadEffect effect;

    @BeforeEach
    void rings() {
        arena = Arena.ofConfined();
        capture = SpscByteRing.allocate(1 << 16);
        controls = SpscByteRing.allocate(1 << 12);
        playback = SpscByteRing.allocate(1 << 16);
        effect = new BiquadEffect(capture, controls, playback, new BiquadLowPass(RATE, 1000, 0.707), arena);
    }

    @AfterEach
    void close() {
        capture.close();
        controls.close();
        playback.close();
        arena.close();
    }

    @Test
    void activationPrimesTheLeadWithSilence() {
        effect.activate(0, 256, 1000, 0.707);

        float[] primed = read(256);
        assertEquals(0, playback.readable(), "exactly the lead");
        for (float sample : primed) {
            assertEquals(0f, sample);
        }
    }

    @Test
    void aControlRecordTakesEffectAtItsFrame() {
        effect.activate(0, 0, 1000, 0.707);
        float[] input = ramp(300);
        record(100, 3000, 2.0f, false); // written before frame 100, as run() does
        write(input);

        assertEquals(300, effect.pump());

        BiquadLowPass expected = new BiquadLowPass(RATE, 1000, 0.707);
        float[] output = read(300);
        for (int i = 0; i < 300; i++) {
            if (i == 100) {
                expected.set(3000, 2.0f);
            }
            assertEquals(expected.process(input[i]), output[i], "frame " + i);
        }
    }

    @Test
    void aHoldStopsAtItsFrameAndItsReleaseGoesOn() {
        effect.activate(0, 0, 1000, 0.707);
        record(50, 1000, 0.707f, true);
        write(ramp(200));

        assertEquals(50, effect.pump(), "held at frame 50");
        assertEquals(50, effect.pump(), "still held");

        record(200, 1000, 0.707f, false);
        assertEquals(200, effect.pump(), "released: every frame captured is processed");
        assertEquals(200 * Float.BYTES, playback.readable());
    }

    @Test
    void ticksHeldOffAreCountedAndTheGapsLongerThanTheLeadAddedUp() {
        TickGaps gaps = new TickGaps();
        long ms = 1_000_000;
        gaps.reset(100 * ms, 5 * ms); // activated at 5 ms
        for (long at : new long[] {6 * ms, 7 * ms, 16 * ms, 17 * ms, 300 * ms, 301 * ms, 313 * ms, 433 * ms}) {
            gaps.tick(at);
        }
        assertTrue(gaps.anyHeldOff());
        assertEquals("3 tick(s) of the effect came 10 ms or more after the one before; the longest gap 283 ms, 0.3 s "
                + "after activation; 2 gap(s) longer than the lead (100 ms), by 203 ms in all", gaps.describe(),
                "10 ms or more: 283, 12 and 120 ms (9 ms is not); longer than the lead: 283 and 120 ms");

        gaps.reset(100 * ms, 900 * ms); // the next activation starts afresh
        gaps.tick(901 * ms);
        assertFalse(gaps.anyHeldOff());
        assertEquals("0 tick(s) of the effect came 10 ms or more after the one before; the longest gap 1 ms, 0.0 s "
                + "after activation; 0 gap(s) longer than the lead (100 ms), by 0 ms in all", gaps.describe());
    }

    @Test
    void aGapLongerThanALeadUnderTenMillisecondsCountsAsHeldOff() {
        TickGaps gaps = new TickGaps();
        gaps.reset(1_333_333, 0); // 64 frames at 48 kHz, the smallest lead
        gaps.tick(1_000_000);
        assertFalse(gaps.anyHeldOff());
        gaps.tick(4_000_000); // 3 ms: an underrun of 1.7 ms
        assertTrue(gaps.anyHeldOff());
    }

    private static float[] ramp(int frames) {
        float[] samples = new float[frames];
        for (int i = 0; i < frames; i++) {
            samples[i] = (i % 37) / 37f - 0.5f;
        }
        return samples;
    }

    private void write(float[] samples) {
        MemorySegment memory = arena.allocate((long) samples.length * Float.BYTES, Long.BYTES);
        MemorySegment.copy(samples, 0, memory, ValueLayout.JAVA_FLOAT, 0, samples.length);
        capture.write(memory, 0, memory.byteSize());
    }

    private float[] read(int frames) {
        MemorySegment memory = arena.allocate((long) frames * Float.BYTES, Long.BYTES);
        assertEquals(memory.byteSize(), playback.read(memory, 0, memory.byteSize()));
        return memory.toArray(ValueLayout.JAVA_FLOAT);
    }

    private void record(long position, float cutoff, float q, boolean hold) {
        MemorySegment memory = arena.allocate(ControlRecord.LENGTH, Long.BYTES);
        memory.set(ValueLayout.JAVA_LONG, ControlRecord.POSITION_OFFSET, position);
        memory.set(ValueLayout.JAVA_FLOAT, ControlRecord.CUTOFF_OFFSET, cutoff);
        memory.set(ValueLayout.JAVA_FLOAT, ControlRecord.Q_OFFSET, q);
        memory.set(ValueLayout.JAVA_INT, ControlRecord.HOLD_OFFSET, hold ? 1 : 0);
        controls.write(memory, 0, ControlRecord.LENGTH);
    }
}
