package dev.lanehost.samples;

/**
 * The duplex sample's effect: a gain, then a one-pole low-pass, {@code y[n] = y[n-1] + alpha (gain x[n] - y[n-1])}.
 * Float arithmetic in a fixed order, so a second instance fed the same input gives the same output bit for bit: the
 * duplex check replays the input through its own instance and compares every sample played.
 *
 * <p>{@link #standard()}: gain 0.5, alpha 0.25 (a cut-off near 2.2 kHz at 48 kHz), so the sweep's upper half comes
 * out audibly quieter and an output that merely copied its input would fail the check.
 */
public final class GainLowPass {
    private final float gain;
    private final float alpha;
    private float y;

    public GainLowPass(float gain, float alpha) {
        if (!Float.isFinite(gain)) {
            throw new IllegalArgumentException("the gain must be a finite number, got " + gain);
        }
        if (!(alpha > 0f && alpha <= 1f)) {
            throw new IllegalArgumentException("the low-pass coefficient alpha must be in (0, 1], got " + alpha);
        }
        this.gain = gain;
        this.alpha = alpha;
    }

    /** Gain 0.5, alpha 0.25: what the duplex sample applies. */
    public static GainLowPass standard() {
        return new GainLowPass(0.5f, 0.25f);
    }

    /** The next output sample for input {@code x}. */
    public float process(float x) {
        y += alpha * (gain * x - y);
        return y;
    }
}
