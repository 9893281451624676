package dev.lanehost.samples.lv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forced underruns, then the delay is the reported latency again. {@code lv2_check_host phases} (a real-time host:
 * it passes urid:map) runs the plugin through five phases (its file comment has them); the effect is stalled on
 * purpose with the test-only {@code hold} port, which the effect obeys at an exact frame, so the silence it causes
 * is known to the frame. Every frame played is checked against the independent C reference delayed by the latency:
 * it is that frame, or it is silence counted as an underrun, never a frame at another delay.
 */
class Lv2UnderrunTest {
    private static final int LEAD = 1024;
    private static final double CUTOFF = 2000;
    private static final double Q = 1.5;
    /** The check host's five phases: 375 + 100 + 375 + 375 + 375 periods of 128 frames. */
    private static final int FRAMES = 1600 * 128;

    @TempDir
    Path work;

    @Test
    void afterForcedUnderrunsTheDelayIsTheReportedLatencyAgain() throws Exception {
        Lv2Bundle.assumeBuilt("lv2_check_host", "biquad_reference");
        float[] input = Lv2Bundle.signal(FRAMES, 11);
        Path in = work.resolve("in.f32");
        Path out = work.resolve("out.f32");
        Lv2Bundle.writeRaw(in, input);
        Lv2Bundle.Result result = Lv2Bundle.run(List.of(Lv2Bundle.CMAKE.resolve("lv2_check_host").toString(), "phases",
                Lv2Bundle.BUNDLE.toString(), in.toString(), out.toString(), Integer.toString(LEAD),
                Double.toString(CUTOFF), Double.toString(Q)), Map.of(), Duration.ofSeconds(120));
        result.assertExitedWith(0);
        List<String> phases = result.lines("phase ");
        assertEquals(5, phases.size(), result.output());
        String exact = phases.get(0), held = phases.get(1), resumed = phases.get(2), live = phases.get(3),
                settled = phases.get(4);
        System.out.println(String.join("\n", phases));

        for (String phase : phases) {
            assertEquals(LEAD, Lv2Bundle.field(phase, "latency"), "the reported latency is the lead: " + phase);
        }
        assertEquals(0, Lv2Bundle.field(exact, "underrun_frames"), "freewheeling: every period waited for: " + exact);
        long heldStart = Lv2Bundle.field(held, "start");
        long heldEnd = Lv2Bundle.field(held, "end");
        long forced = heldEnd - heldStart - LEAD; // what the effect wrote before its hold covers the first lead
        assertEquals(forced, Lv2Bundle.field(held, "underrun_frames"), "silence played while held: " + held);
        assertEquals(forced, Lv2Bundle.field(resumed, "dropped_frames"), "the late frames dropped: " + resumed);
        assertEquals(Lv2Bundle.field(resumed, "waits"), Lv2Bundle.field(live, "waits"),
                "in real time run() never waits: " + live);
        long underruns = Lv2Bundle.field(settled, "underrun_frames");
        assertEquals(underruns, Lv2Bundle.field(settled, "dropped_frames"),
                "every frame of silence was matched by a late frame dropped: " + settled);

        float[] output = Lv2Bundle.readRaw(out);
        float[] reference = Lv2Bundle.reference(work, input, CUTOFF, Q);
        long settledStart = Lv2Bundle.field(settled, "start");
        long silent = 0;
        for (int t = LEAD; t < FRAMES; t++) {
            boolean aligned = Math.abs(output[t] - reference[t - LEAD]) <= Lv2ApplyTest.TOLERANCE;
            boolean silence = output[t] == 0f; // a frame of the effect is exactly 0 with negligible odds
            if (t >= heldStart + LEAD && t < heldEnd) {
                assertTrue(silence, "frame " + t + " is played while the effect is held: " + output[t]);
            }
            if (silence) {
                assertTrue(t >= heldStart + LEAD && t < settledStart, "frame " + t + " is silence outside the held "
                        + "and live phases");
                silent++;
            } else if (!aligned) {
                throw new AssertionError("frame " + t + ": " + output[t] + " is neither the reference delayed by the "
                        + "latency (" + reference[t - LEAD] + ") nor silence");
            }
        }
        assertEquals(underruns, silent, "frames of silence played = underrun frames the plugin counted");
    }
}
