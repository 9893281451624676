package dev.lanehost.samples;

import java.util.Arrays;
import java.util.List;

/**
 * A frame loop's run in numbers: drive time and wake-up jitter quantiles, late frames, drives that were not OK,
 * frames that hit the turn bound, and how many frames ran each number of turns.
 *
 * @param frames         frames run
 * @param lateFrames     frames that woke more than a period late
 * @param failedDrives   drives that did not answer OK
 * @param boundHit       frames whose drive ran its whole turn bound and left letters queued for later frames
 * @param turns          turns run by all drives
 * @param turnsHistogram {@code turnsHistogram[n]}: frames that ran {@code n} turns ({@code 0..maxTurns})
 * @param driveNanos     drive time, sorted
 * @param jitterNanos    how late each frame woke, sorted
 */
public record FrameStats(int frames, int lateFrames, long failedDrives, long boundHit, long turns, long[] turnsHistogram,
                         long[] driveNanos, long[] jitterNanos) {

    /** The statistics of {@code run}, whose drives were bounded by {@code maxTurns}. */
    public static FrameStats of(FrameHost.Run run, int maxTurns) {
        List<FrameHost.Frame> frames = run.frames();
        long[] histogram = new long[maxTurns + 1];
        long turns = 0;
        long failed = 0;
        long boundHit = 0;
        for (FrameHost.Frame frame : frames) {
            histogram[Math.min(Math.max(frame.turns(), 0), maxTurns)]++;
            turns += frame.turns();
            if (frame.status() != 0) {
                failed++;
            }
            if (frame.turns() == maxTurns && frame.remaining() > 0) {
                boundHit++;
            }
        }
        return new FrameStats(frames.size(), run.lateFrames(), failed, boundHit, turns, histogram,
                frames.stream().mapToLong(FrameHost.Frame::driveNanos).sorted().toArray(),
                frames.stream().mapToLong(FrameHost.Frame::jitterNanos).sorted().toArray());
    }

    /** The {@code quantile} (0..1) of a sorted array, nearest rank; 0 for none. */
    public static long quantile(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.min(sorted.length - 1, Math.max(0, index))];
    }

    /** "p50 1.2 us  p99 8.0 us  max 40.1 us". */
    public static String quantiles(long[] sorted) {
        return String.format("p50 %s p99 %s max %s", micros(quantile(sorted, 0.50)), micros(quantile(sorted, 0.99)),
                micros(quantile(sorted, 1)));
    }

    /** Nanoseconds as microseconds, or milliseconds from 10 ms on. */
    public static String micros(long nanos) {
        return nanos >= 10_000_000 ? String.format("%.1f ms", nanos / 1e6) : String.format("%.1f us", nanos / 1e3);
    }

    /** "0:12 1:340 2:50 3:10 4:3" — frames by turns run; the last is the bound. */
    public String histogram() {
        StringBuilder text = new StringBuilder();
        for (int n = 0; n < turnsHistogram.length; n++) {
            text.append(n == 0 ? "" : " ").append(n).append(':').append(turnsHistogram[n]);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FrameStats s && frames == s.frames && lateFrames == s.lateFrames && failedDrives == s.failedDrives
                && boundHit == s.boundHit && turns == s.turns && Arrays.equals(turnsHistogram, s.turnsHistogram)
                && Arrays.equals(driveNanos, s.driveNanos) && Arrays.equals(jitterNanos, s.jitterNanos);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new long[] {frames, lateFrames, failedDrives, boundHit, turns}) * 31 + Arrays.hashCode(turnsHistogram);
    }

    @Override
    public String toString() {
        return "FrameStats[frames=" + frames + ", late=" + lateFrames + ", failed=" + failedDrives + ", boundHit=" + boundHit
                + ", turns=" + turns + ", histogram=" + histogram() + "]";
    }
}
