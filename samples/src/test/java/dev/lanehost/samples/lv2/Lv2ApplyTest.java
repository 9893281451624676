package dev.lanehost.samples.lv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unmodified {@code lv2apply} (lilv-utils) runs the plugin over a WAV file, as an offline host: it passes no
 * features and runs one frame per {@code run()}, so the plugin waits for its Java effect. The output must be the
 * independent C reference ({@code biquad_reference.c}) of the same effect shifted by the reported latency, within
 * {@link #TOLERANCE}, and exact silence before it.
 */
class Lv2ApplyTest {
    /**
     * Float tolerance against the reference: both compute in double and round each sample to float; the forms differ
     * (direct form I against transposed form II), so the last float bit may differ. 1e-5 is ~80 float ulps at 0.5.
     */
    static final double TOLERANCE = 1e-5;
    private static final int FRAMES = 2 * Lv2Bundle.RATE;

    @TempDir
    Path work;

    @Test
    void lv2applyOutputIsTheReferenceShiftedByTheReportedLatency() throws Exception {
        applyAndCompare(1500, 2000, 1.5);
    }

    @Test
    void theDefaultSettingsToo() throws Exception {
        applyAndCompare(-1, 1000, 0.707); // lead, cut-off and Q at the TTL's defaults: 1024, 1000, 0.707
    }

    @Test
    void lv2infoFindsTheBundleAndItsLatencyPort() throws Exception {
        Lv2Bundle.assumeBuilt();
        Lv2Bundle.assumeOnPath("lv2info", "lilv-utils");
        Lv2Bundle.Result result = Lv2Bundle.run(List.of("lv2info", Lv2Bundle.URI), Map.of(), Duration.ofSeconds(60));
        result.assertExitedWith(0);
        assertTrue(result.output().matches("(?s).*Has latency:\\s+yes, reported by port 7\\b.*"), result.output());
        assertTrue(result.output().contains("http://lv2plug.in/ns/lv2core#freeWheeling"), result.output());
    }

    private void applyAndCompare(int lead, double cutoff, double q) throws Exception {
        Lv2Bundle.assumeBuilt("biquad_reference");
        Lv2Bundle.assumeOnPath("lv2apply", "lilv-utils");
        float[] input = Lv2Bundle.signal(FRAMES, 7);
        Path in = work.resolve("in.wav");
        Path out = work.resolve("out.wav");
        writeFloatWav(in, input);
        List<String> command = new ArrayList<>(List.of("lv2apply", "-i", in.toString(), "-o", out.toString()));
        if (lead > 0) {
            command.addAll(List.of("-c", "lead", Integer.toString(lead), "-c", "cutoff", Double.toString(cutoff),
                    "-c", "q", Double.toString(q)));
        }
        command.add(Lv2Bundle.URI);
        Lv2Bundle.run(command, Map.of(), Duration.ofSeconds(120)).assertExitedWith(0);

        int latency = lead > 0 ? lead : 1024;
        float[] output = readFloatWav(out);
        float[] reference = Lv2Bundle.reference(work, input, cutoff, q);
        assertEquals(FRAMES, output.length, "lv2apply writes as many frames as it read");
        double worst = 0;
        for (int t = 0; t < FRAMES; t++) {
            double expected = t < latency ? 0 : reference[t - latency];
            double difference = Math.abs(output[t] - expected);
            if (t < latency ? output[t] != 0f : difference > TOLERANCE) {
                throw new AssertionError("frame " + t + ": " + output[t] + ", expected " + expected + " (the reference "
                        + "delayed by the latency, " + latency + " frames)");
            }
            worst = Math.max(worst, difference);
        }
        System.out.printf("lv2apply: %d frames, latency %d, the largest difference from the reference %.3g%n",
                FRAMES, latency, worst);
    }

    /** A mono IEEE-float WAV (format 3), what lv2apply reads and, in the same format, writes. */
    static void writeFloatWav(Path file, float[] samples) throws IOException {
        int data = samples.length * Float.BYTES;
        ByteBuffer wav = ByteBuffer.allocate(44 + data).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + data).put("WAVE".getBytes());
        wav.put("fmt ".getBytes()).putInt(16).putShort((short) 3).putShort((short) 1).putInt(Lv2Bundle.RATE)
                .putInt(Lv2Bundle.RATE * Float.BYTES).putShort((short) Float.BYTES).putShort((short) 32);
        wav.put("data".getBytes()).putInt(data);
        for (float sample : samples) {
            wav.putFloat(sample);
        }
        Files.write(file, wav.array());
    }

    /** The samples of a mono float WAV's data chunk (the chunks before it skipped: libsndfile adds some). */
    static float[] readFloatWav(Path file) throws IOException {
        ByteBuffer wav = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        wav.position(12);
        while (wav.remaining() >= 8) {
            byte[] id = new byte[4];
            wav.get(id);
            int length = wav.getInt();
            if (new String(id).equals("fmt ")) {
                assertEquals(3, wav.getShort(wav.position()), "lv2apply kept the float format");
            }
            if (new String(id).equals("data")) {
                float[] samples = new float[length / Float.BYTES];
                wav.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(samples);
                return samples;
            }
            wav.position(wav.position() + length + (length & 1));
        }
        throw new AssertionError(file + " has no data chunk");
    }
}
