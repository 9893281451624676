package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.samples.AudioConsumer;
import dev.lanehost.samples.AudioProducer;
import dev.lanehost.samples.AudioRing;
import dev.lanehost.samples.AudioThread;
import dev.lanehost.samples.AudioTiming;
import dev.lanehost.samples.Sweep;
import dev.lanehost.samples.WavWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audio-ring sample's fallback path, where JACK is absent: the built-in C audio thread ({@code audio_thread.c})
 * writes a sine sweep and timing records into rings looked up through the host ABI table, and the Java consumer
 * actor reads, checks and records every sample. Counts and contents only, no timing.
 */
class AudioRingFallbackTest {
    private static final int RATE = 48_000;
    private static final int PERIOD_FRAMES = 128;
    /** A quarter-second sweep, so a second of audio wraps it four times (the index arithmetic at each restart). */
    private static final Sweep SWEEP = Sweep.of(100, 4000, RATE, 0.25);
    private static final long SAMPLES = RATE;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void everySampleTheAudioThreadWritesReachesTheConsumerAndTheWavFileAsTheSweep(@TempDir Path directory) throws IOException {
        Path wav = directory.resolve("sweep.wav");
        AudioRing.Counts counts;
        AudioTiming timing;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             AudioRing ring = AudioRing.start(runtime, abi, new AudioRing.Settings(AudioRing.Source.THREAD, SWEEP, PERIOD_FRAMES,
                     wav, directory))) {
            assertTrue(ring.producer() instanceof AudioThread, "the built-in thread was asked for: " + ring.producer().name());
            await("a second of audio read", () -> ring.counts().samplesRead() >= SAMPLES);
            counts = ring.finish();
            timing = ring.timing();
        }

        AudioProducer.Counts produced = counts.producer();
        assertFalse(produced.running(), "the audio thread ended");
        assertEquals(-1, counts.firstMismatch(), "sample " + counts.firstMismatch() + " was " + counts.mismatchValue());
        assertTrue(counts.samplesRead() >= SAMPLES);
        assertEquals(produced.samplesWritten(), counts.samplesRead(), "the consumer read every sample written");
        assertEquals((produced.periods() - produced.ringOverruns()) * PERIOD_FRAMES, produced.samplesWritten(),
                "every period was written whole or dropped whole");
        assertEquals(produced.periods() - produced.timingOverruns(), counts.timingRecords(), "one timing record a period");

        // The timing records tell the same story: each period's first sample follows the last written one.
        long next = 0;
        for (int i = 0; i < timing.count(); i++) {
            assertEquals(next, timing.firstSample(i), "timing record " + i + "'s first sample");
            if (!timing.dropped(i)) {
                next += PERIOD_FRAMES;
            }
        }
        assertEquals(produced.samplesWritten(), next);

        // The WAV file, read back independently: a 44-byte header with the right sizes, then every sample of the sweep.
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(wav)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(44 + 2 * counts.samplesRead(), file.capacity());
        assertEquals(36 + 2 * counts.samplesRead(), file.getInt(4), "RIFF size");
        assertEquals(RATE, file.getInt(24), "sample rate");
        assertEquals(16, file.getShort(34), "bits per sample");
        assertEquals(2 * counts.samplesRead(), file.getInt(40), "data size");
        for (long k = 0; k < counts.samplesRead(); k++) {
            int expected = Math.round(SWEEP.sample(k) * Short.MAX_VALUE);
            int actual = file.getShort((int) (44 + 2 * k));
            assertTrue(Math.abs(expected - actual) <= 1, "WAV sample " + k + " is " + actual + ", the sweep's is " + expected);
        }
    }

    @Test
    void theConsumerReportsTheFirstSampleThatIsNotTheSweeps(@TempDir Path directory) throws IOException {
        int corrupted = 1000;
        try (SpscByteRing audio = SpscByteRing.allocate(1 << 16);
             SpscByteRing timingRing = SpscByteRing.allocate(1 << 12)) {
            ByteBuffer samples = ByteBuffer.allocate(2000 * Float.BYTES).order(ByteOrder.nativeOrder());
            for (int k = 0; k < 2000; k++) {
                samples.putFloat(k == corrupted ? SWEEP.sample(k) + 0.01f : SWEEP.sample(k));
            }
            samples.flip();
            assertEquals(samples.remaining(), audio.write(samples));
            AudioConsumer consumer = new AudioConsumer(audio, new AudioTiming(timingRing), SWEEP,
                    new WavWriter(directory.resolve("corrupt.wav"), RATE));

            assertEquals(2000, consumer.finish());
            assertEquals(corrupted, consumer.firstMismatch());
            assertEquals(SWEEP.sample(corrupted) + 0.01f, consumer.mismatchValue());
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not reached within " + DEADLINE + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
