package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GainLowPassTest {
    @Test
    void aStepComesOutHalvedAndSmoothed() {
        GainLowPass effect = GainLowPass.standard(); // gain 0.5, alpha 0.25: y += 0.25 (0.5 x - y)
        assertEquals(0.125f, effect.process(1f));
        assertEquals(0.21875f, effect.process(1f));
        assertEquals(0.2890625f, effect.process(1f));
        assertEquals(0.216796875f, effect.process(0f));
    }

    @Test
    void twoInstancesFedTheSameInputAgreeBitForBit() {
        GainLowPass a = GainLowPass.standard();
        GainLowPass b = GainLowPass.standard();
        Sweep sweep = Sweep.of(100, 4000, 48_000, 2.0);
        for (int k = 0; k < 96_000; k++) {
            float x = sweep.sample(k);
            assertEquals(Float.floatToRawIntBits(a.process(x)), Float.floatToRawIntBits(b.process(x)), "sample " + k);
        }
    }

    @Test
    void aCoefficientOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new GainLowPass(1f, 0f));
        assertThrows(IllegalArgumentException.class, () -> new GainLowPass(1f, 1.5f));
        assertThrows(IllegalArgumentException.class, () -> new GainLowPass(Float.NaN, 0.5f));
    }
}
