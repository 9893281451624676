package dev.lanehost.samples.lv2;

/**
 * The LV2 sample's effect: a second-order low-pass (the RBJ audio-EQ cookbook's LPF) with a cut-off frequency and a
 * resonance Q, in direct form I with double state; output rounded to float.
 *
 * <p>New settings take effect at the next sample without resetting the state, as a host's control change should:
 * the filter keeps its history, so a change is a change of tone, not a click of silence.
 */
public final class BiquadLowPass {
    /** Below this the filter's coefficients lose precision in double and the LV2 port's range starts. */
    static final double MIN_CUTOFF_HZ = 10;
    /** Keeps the cut-off below Nyquist, where the cookbook's formula folds over. */
    static final double MAX_CUTOFF_FRACTION = 0.45;
    static final double MIN_Q = 0.1;

    private final double sampleRate;
    private double b0;
    private double b1;
    private double b2;
    private double a1;
    private double a2;
    private double x1;
    private double x2;
    private double y1;
    private double y2;

    public BiquadLowPass(double sampleRate, double cutoffHz, double q) {
        if (!(sampleRate > 0)) {
            throw new IllegalArgumentException("the sample rate must be positive, got " + sampleRate);
        }
        this.sampleRate = sampleRate;
        set(cutoffHz, q);
    }

    public double sampleRate() {
        return sampleRate;
    }

    /** New cut-off and Q, clamped to what the filter can do at this rate (the plugin's ports say the same range). */
    public void set(double cutoffHz, double q) {
        double cutoff = Math.min(Math.max(cutoffHz, MIN_CUTOFF_HZ), sampleRate * MAX_CUTOFF_FRACTION);
        double resonance = Math.max(q, MIN_Q);
        double w0 = 2 * Math.PI * cutoff / sampleRate;
        double cos = Math.cos(w0);
        double alpha = Math.sin(w0) / (2 * resonance);
        double a0 = 1 + alpha;
        b0 = (1 - cos) / 2 / a0;
        b1 = (1 - cos) / a0;
        b2 = b0;
        a1 = -2 * cos / a0;
        a2 = (1 - alpha) / a0;
    }

    /** Forgets the history (an LV2 activate: the stream starts again). */
    public void reset() {
        x1 = x2 = y1 = y2 = 0;
    }

    /** The next output sample for input {@code x}. */
    public float process(float x) {
        double y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        return (float) y;
    }
}
