package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The audio-ring sample: a real-time audio callback in C — JACK's process callback on a private jackd with the
 * dummy driver, or, where JACK is absent or does not start, the built-in audio thread (48 kHz, 128-frame periods)
 * — writes a sine sweep (100 Hz → 4 kHz every 2 s) into a lanehost ring without entering the JVM; a Java actor
 * on a worker plays it 20 ms behind, checks every sample, counts overruns and underruns, writes a WAV file, and
 * plots the callback periods and the ring's fill to a PNG.
 *
 * <p>Usage: {@code java -cp samples/target/lanehost-demo.jar dev.lanehost.samples.AudioRingDemo [seconds, default 10]
 * [--out DIR, default target/audio-ring] [--thread (the built-in thread even where JACK is there) | --jack (JACK or fail)]}
 */
public final class AudioRingDemo {
    public static final int SAMPLE_RATE = 48_000;
    public static final int PERIOD_FRAMES = 128;
    /** Audible and easy to recognise in the WAV; the sweep repeats every two seconds. */
    public static final Sweep SWEEP = Sweep.of(100, 4000, SAMPLE_RATE, 2.0);

    private AudioRingDemo() {
    }

    static final int DEFAULT_SECONDS = 10;

    public static void main(String[] args) throws Exception {
        int seconds = DEFAULT_SECONDS;
        Path out = Path.of("target", "audio-ring");
        AudioRing.Source source = AudioRing.Source.AUTO;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--thread" -> source = AudioRing.Source.THREAD;
                case "--jack" -> source = AudioRing.Source.JACK;
                default -> seconds = Integer.parseInt(args[i]);
            }
        }
        Path wav = out.resolve("sweep.wav");
        Path png = out.resolve("audio-ring.png");
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             AudioRing ring = AudioRing.start(runtime, abi, new AudioRing.Settings(source, SWEEP, PERIOD_FRAMES, wav, out))) {
            if (ring.fallbackReason() != null) {
                System.out.println("JACK not used: " + ring.fallbackReason());
            }
            System.out.printf("audio-ring: %s -> ring '%s' (%d MiB) -> Java actor 'audio-consumer', %s of a %.0f-%.0f Hz sweep%n",
                    ring.producer().name(), AudioRing.AUDIO_RING, AudioRing.AUDIO_RING_BYTES >> 20, StatusLine.duration(seconds, DEFAULT_SECONDS, "s"),
                    SWEEP.f0(), SWEEP.f1());
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            StatusLine status = new StatusLine(System.out, start, seconds);
            for (long now = start; now < end; now = System.nanoTime()) {
                status.update(now, () -> counters(ring.counts()));
                LockSupport.parkNanos(Math.min(StatusLine.INTERVAL_NANOS, end - now)); // pacing the status line, not synchronisation
            }
            status.finish(System.nanoTime(), () -> counters(ring.counts()));
            AudioRing.Counts c = ring.finish();
            print(c, ring.producer());
            AudioPlot.render(ring.timing(), ring.producer().sweep().rate(), ring.producer().periodFrames(), ring.producer().name(), png);
            System.out.printf("wrote %s (%.1f s of 16-bit PCM) and %s%n", wav, c.samplesRead() / (double) SWEEP.rate(), png);
            if (c.firstMismatch() >= 0 || c.samplesRead() != c.producer().samplesWritten()) {
                System.exit(1);
            }
        }
    }

    private static String counters(AudioRing.Counts c) {
        return String.format("periods %,8d | samples read %,10d | overruns %d | underruns %d", c.producer().periods(), c.samplesRead(),
                c.producer().ringOverruns(), c.underruns());
    }

    static void print(AudioRing.Counts c, AudioProducer producer) {
        AudioProducer.Counts p = c.producer();
        System.out.printf("callbacks %,d (%s), samples written %,d, read and checked %,d, first wrong sample %s%n",
                p.periods(), producer.name(), p.samplesWritten(), c.samplesRead(),
                c.firstMismatch() < 0 ? "none" : c.firstMismatch() + " (" + c.mismatchValue() + ")");
        System.out.printf("ring overruns %d (periods the callback dropped: ring full), underruns %d (consumer ticks that found"
                        + " less than was due), timing records %,d (%d dropped), %s%n",
                p.ringOverruns(), c.underruns(), c.timingRecords(), p.timingOverruns(),
                producer instanceof AudioThread ? "late periods " + p.latePeriods() + " (woke more than a period late), latest"
                        + String.format(" wake-up %.2f ms after its deadline", p.maxLatenessNanos() / 1e6) : "JACK xruns " + p.xruns());
    }
}
