package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The duplex check, fed by hand what the C callback would log: inserted silence, effect output, an underrun, a drop. */
class DuplexMonitorTest {
    private static final int C = DuplexMonitor.CAPTURED;
    private static final int P = DuplexMonitor.PLAYED;

    private static void log(SpscByteRing ring, float in, float out, int flags) {
        log(ring, in, out, flags, 0);
    }

    private static void log(SpscByteRing ring, float in, float out, int flags, int droppedBefore) {
        ByteBuffer frame = ByteBuffer.allocate(DuplexMonitor.FRAME_BYTES).order(ByteOrder.nativeOrder());
        frame.putFloat(in).putFloat(out).putInt(flags).putInt(droppedBefore).flip();
        assertEquals(DuplexMonitor.FRAME_BYTES, ring.write(frame));
    }

    @Test
    void everyPlayedFrameIsTheEffectOfItsInputAndTheDelayFollowsTheSilence() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096);
             InsertedSilence inserted = new InsertedSilence()) {
            GainLowPass effect = GainLowPass.standard();
            DuplexMonitor monitor = new DuplexMonitor(ring, inserted, GainLowPass.standard(), 64, null, 0);
            inserted.record(0, 2); // the effect primed a lead of two frames
            log(ring, 1f, 0f, C | P);                          // slot 0: primed silence
            log(ring, 0.5f, 0f, C | P);                        // slot 1: primed silence
            log(ring, -1f, effect.process(1f), C | P);         // slot 2: input of slot 0, delay 2
            log(ring, 0f, 0f, C);                              // slot 3: the ring ran dry, the callback played silence
            log(ring, 0.25f, effect.process(0.5f), C | P);     // slot 4: input of slot 1, delay 3
            log(ring, 0.75f, effect.process(-1f), P);          // slot 5: input of slot 2; this slot's input was dropped
            log(ring, 0f, effect.process(0f), C | P);          // slot 6: input of slot 3, delay 3
            log(ring, 0f, effect.process(0.25f), C | P);       // slot 7: input of slot 4, delay 3
            log(ring, 0f, effect.process(0f), C | P);          // slot 8: input of slot 6 (slot 5's was dropped), delay 2
            assertEquals(9, monitor.drain());
            assertEquals(0, monitor.mismatches(), monitor.firstMismatch());
            assertEquals(6, monitor.matched());
            assertEquals(2, monitor.insertedPlayed());
            assertEquals(1, monitor.underrunFrames());
            assertEquals(2, monitor.firstDelay());
            assertEquals(2, monitor.lastDelay());
            assertEquals(3, monitor.maxDelay());
            assertEquals(monitor.lastDelay(), monitor.expectedDelay(), "first + silence since - inputs dropped since");
        }
    }

    @Test
    void lateFramesDroppedAfterAnUnderrunBringTheDelayBackToTheFirst() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096);
             InsertedSilence inserted = new InsertedSilence()) {
            GainLowPass effect = GainLowPass.standard();
            DuplexMonitor monitor = new DuplexMonitor(ring, inserted, GainLowPass.standard(), 64, null, 0);
            inserted.record(0, 2);
            log(ring, 1f, 0f, C | P);                          // slot 0: primed silence
            log(ring, 0.5f, 0f, C | P);                        // slot 1: primed silence
            log(ring, -1f, effect.process(1f), C | P);         // slot 2: input of slot 0, delay 2
            log(ring, 0.25f, 0f, C);                           // slot 3: underrun, owed 1
            effect.process(0.5f);                              // the effect's output for slot 1 comes late: dropped
            log(ring, 0f, effect.process(-1f), C | P, 1);      // slot 4: input of slot 2, delay 2 again
            log(ring, 0f, effect.process(0.25f), C | P);       // slot 5: input of slot 3, delay 2
            assertEquals(6, monitor.drain());
            assertEquals(0, monitor.mismatches(), monitor.firstMismatch());
            assertEquals(3, monitor.matched());
            assertEquals(1, monitor.underrunFrames());
            assertEquals(1, monitor.droppedLate());
            assertEquals(2, monitor.firstDelay());
            assertEquals(2, monitor.lastDelay());
            assertEquals(2, monitor.expectedDelay(), "first + silence since - late frames dropped since");
        }
    }

    @Test
    void anOutputOneBitOffIsAMismatch() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096);
             InsertedSilence inserted = new InsertedSilence()) {
            DuplexMonitor monitor = new DuplexMonitor(ring, inserted, GainLowPass.standard(), 64, null, 0);
            log(ring, 1f, 0f, C);
            float right = GainLowPass.standard().process(1f);
            log(ring, 0f, Math.nextUp(right), C | P);
            monitor.drain();
            assertEquals(1, monitor.mismatches());
            assertNotNull(monitor.firstMismatch());
            assertTrue(monitor.firstMismatch().startsWith("slot 1:"), monitor.firstMismatch());
        }
    }

    @Test
    void outputWithNoInputToHaveMadeItIsAMismatch() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096);
             InsertedSilence inserted = new InsertedSilence()) {
            DuplexMonitor monitor = new DuplexMonitor(ring, inserted, GainLowPass.standard(), 64, null, 0);
            log(ring, 0f, 0.5f, P);
            monitor.drain();
            assertEquals(1, monitor.mismatches(), "a frame played from the ring that neither silence nor an input explains");
        }
    }

    @Test
    void underrunSilenceThatIsNotSilentIsAMismatch() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096);
             InsertedSilence inserted = new InsertedSilence()) {
            DuplexMonitor monitor = new DuplexMonitor(ring, inserted, GainLowPass.standard(), 64, null, 0);
            log(ring, 0f, 0.1f, C);
            monitor.drain();
            assertEquals(1, monitor.mismatches());
        }
    }
}
