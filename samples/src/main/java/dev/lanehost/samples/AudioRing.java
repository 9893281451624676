package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostRing;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The audio-ring pipeline, set up the way lanehost recommends for audio: the real-time callback (JACK's, or the
 * built-in audio thread where JACK is absent) touches rings only; Java consumes on an ordinary worker.
 *
 * <ol>
 *   <li>Export two rings through the host ABI: {@value #AUDIO_RING} (float samples) and {@value #TIMING_RING} (one
 *       32-byte record per period).</li>
 *   <li>Start the producer: it looks both rings up through the table and writes a sine sweep, period by period.</li>
 *   <li>Spawn the {@link AudioConsumer} actor on a worker, and a gate on it through which {@link #finish()} ends
 *       it inside one of its turns.</li>
 *   <li>{@link #finish()}: stop the producer (nothing writes any more), call the gate (the consumer reads what is
 *       left and closes the WAV), and return the final counts.</li>
 * </ol>
 */
public final class AudioRing implements AutoCloseable {
    public static final String AUDIO_RING = "audio";
    public static final String TIMING_RING = "audio-timing";
    /** 4 MiB: 21 s of float audio at 48 kHz, so even a consumer stalled for seconds never makes the callback drop. */
    public static final long AUDIO_RING_BYTES = 4L << 20;
    /** 1 MiB: 32,768 timing records, 87 s of 128-frame periods at 48 kHz. */
    public static final long TIMING_RING_BYTES = 1L << 20;
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(30);

    /** Which producer to use. */
    public enum Source {
        /** JACK when jackd and the JACK host library are there and jackd starts; else the built-in thread. */
        AUTO,
        /** The built-in audio thread, even where JACK is available. */
        THREAD,
        /** JACK, or fail. */
        JACK
    }

    /**
     * How to run.
     *
     * @param source       which producer
     * @param sweep        the sweep (its rate is the built-in thread's; JACK uses its server's, 48 kHz here)
     * @param periodFrames frames per period
     * @param wav          the WAV file to write, or null
     * @param logDirectory where jackd's log goes
     */
    public record Settings(Source source, Sweep sweep, int periodFrames, Path wav, Path logDirectory) {
    }

    /** What both ends counted. */
    public record Counts(AudioProducer.Counts producer, long samplesRead, long underruns, long firstMismatch,
                         float mismatchValue, long timingRecords) {
    }

    private final HostRing audio;
    private final HostRing timingRing;
    private final AudioProducer producer;
    private final AudioConsumer consumer;
    private final ActorRef consumerRef;
    private final CallGate finishGate;
    private final String fallbackReason;
    private Counts finished;

    private AudioRing(HostRing audio, HostRing timingRing, AudioProducer producer, AudioConsumer consumer, ActorRef consumerRef,
                      CallGate finishGate, String fallbackReason) {
        this.audio = audio;
        this.timingRing = timingRing;
        this.producer = producer;
        this.consumer = consumer;
        this.consumerRef = consumerRef;
        this.finishGate = finishGate;
        this.fallbackReason = fallbackReason;
    }

    /** Exports the rings, starts the producer and the consumer. */
    public static AudioRing start(ActorRuntime runtime, HostAbi abi, Settings settings) throws IOException {
        HostRing audio = abi.exportRing(AUDIO_RING, AUDIO_RING_BYTES);
        HostRing timing = abi.exportRing(TIMING_RING, TIMING_RING_BYTES);
        Sweep sweep = settings.sweep();
        AudioProducer producer = null;
        String fallback = null;
        try {
            if (settings.source() != Source.THREAD) {
                String unavailable = JackAudio.unavailableReason();
                if (unavailable == null) {
                    try {
                        producer = JackAudio.start(abi.table(), AUDIO_RING, TIMING_RING, sweep.f0(), sweep.f1(), sweep.seconds(),
                                sweep.rate(), settings.periodFrames(), settings.logDirectory());
                    } catch (IOException | RuntimeException e) {
                        unavailable = "JACK did not start: " + e.getMessage();
                    }
                }
                if (producer == null && settings.source() == Source.JACK) {
                    throw new IOException(unavailable);
                }
                fallback = unavailable;
            }
            if (producer == null) {
                producer = AudioThread.start(abi.table(), AUDIO_RING, TIMING_RING, sweep, settings.periodFrames(), 0);
            }
            WavWriter wav = settings.wav() == null ? null : new WavWriter(settings.wav(), producer.sweep().rate());
            AudioConsumer consumer = new AudioConsumer(audio.ring(), new AudioTiming(timing.ring()), producer.sweep(), wav);
            ActorRef ref = AudioActors.spawn(runtime, "audio-consumer", consumer);
            CallGate gate = CallGate.open(ref, (context, args) -> consumer.finish());
            return new AudioRing(audio, timing, producer, consumer, ref, gate, fallback);
        } catch (IOException | RuntimeException | Error e) {
            if (producer != null) {
                producer.close();
            }
            audio.close();
            timing.close();
            throw e;
        }
    }

    /** The producer in use. */
    public AudioProducer producer() {
        return producer;
    }

    /** Why JACK was not used though it was asked for ({@link Source#AUTO}), or null. */
    public String fallbackReason() {
        return fallbackReason;
    }

    /** The counts so far, from any thread (racy but safe: each counter read on its own). */
    public Counts counts() {
        if (finished != null) {
            return finished;
        }
        return new Counts(producer.counts(), consumer.samples(), consumer.underruns(), consumer.firstMismatch(),
                consumer.mismatchValue(), -1);
    }

    /**
     * Stops the producer, lets the consumer read everything left (in its own turn, through the gate), and returns
     * the final counts. Idempotent.
     *
     * @throws IllegalStateException if the consumer does not answer
     */
    public Counts finish() {
        if (finished != null) {
            return finished;
        }
        producer.close();
        CallResult result = finishGate.call(null, FINISH_TIMEOUT);
        if (!result.isOk()) {
            throw new IllegalStateException("the audio consumer did not finish: " + result.status() + " " + result.detail());
        }
        finished = new Counts(producer.counts(), consumer.samples(), consumer.underruns(), consumer.firstMismatch(),
                consumer.mismatchValue(), consumer.timing().count());
        return finished;
    }

    /** The timing records (complete after {@link #finish()}). */
    public AudioTiming timing() {
        return consumer.timing();
    }

    /** Finishes if not yet, then closes the gate, stops the consumer and frees the rings. */
    @Override
    public void close() {
        try {
            finish();
        } finally {
            finishGate.close();
            consumerRef.kill();
            audio.close();
            timingRing.close();
        }
    }
}
