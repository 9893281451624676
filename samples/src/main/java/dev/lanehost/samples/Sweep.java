package dev.lanehost.samples;

/**
 * The sine sweep the samples' audio callbacks write ({@code audio_source.h}): sample {@code k} is
 * {@code (float) sin(phase(k mod length))}, a linear chirp from {@code f0} to {@code f1} Hz over {@code length}
 * samples that then starts again, with {@code t = i / rate}, {@code T = length / rate} and
 * {@code phase(i) = 2π (f0 t + (f1 − f0) t² / (2T))}. The expression is evaluated in the same order as the C
 * one, so the two agree to a float's rounding.
 *
 * @param f0     Hz at the start of each sweep (> 0)
 * @param f1     Hz at its end (> 0)
 * @param rate   samples per second (> 0)
 * @param length samples per sweep (> 0)
 */
public record Sweep(double f0, double f1, int rate, long length) {
    /** How far a sample may be from Java's computation: a float's rounding plus the last bits of two sin()s. */
    public static final float TOLERANCE = 1e-5f;

    public Sweep {
        if (!(f0 > 0) || !(f1 > 0) || rate <= 0 || length <= 0) {
            throw new IllegalArgumentException("a sweep needs f0 > 0, f1 > 0, rate > 0 and length > 0 samples; got "
                    + f0 + " Hz, " + f1 + " Hz, " + rate + " Hz, " + length + " samples");
        }
    }

    /** A sweep of {@code seconds} (truncated to whole samples, as C does). */
    public static Sweep of(double f0, double f1, int rate, double seconds) {
        return new Sweep(f0, f1, rate, (long) (seconds * rate));
    }

    /** The sweep's length in seconds, as C passes it. */
    public double seconds() {
        return (double) length / rate;
    }

    /** Sample {@code k} of the stream. */
    public float sample(long k) {
        double t = (double) Long.remainderUnsigned(k, length) / rate;
        double duration = (double) length / rate;
        double phase = 2.0 * Math.PI * (f0 * t + (f1 - f0) * t * t / (2.0 * duration));
        return (float) Math.sin(phase);
    }
}
