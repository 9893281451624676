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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The duplex sample's core, shared by {@link AudioDuplexDemo} and its test: on a running JACK server, three C clients
 * and one actor.
 *
 * <ul>
 *   <li>the <b>sweep</b> client plays the sine sweep into its output port, which is connected ({@code jack_connect})
 *       to the duplex client's input: the signal comes in through a real JACK input port (the dummy driver's own
 *       capture ports are silent);</li>
 *   <li>the <b>duplex</b> client's callback writes its input into the capture ring, plays the playback ring
 *       ({@code lanehost_ring_read_frames}: silence and a counted underrun when it runs dry; the late frames that
 *       silence stood for are dropped when they come, counted, so the delay stays the lead: {@code duplex_period.h})
 *       and logs both for the check (the monitor ring); rings only, never the JVM;</li>
 *   <li>the <b>plain</b> client writes silence and counts: the baseline;</li>
 *   <li>the {@link DuplexEffect} actor, on a worker, moves captured frames through {@link GainLowPass} into the
 *       playback ring, a lead ahead of the callback;</li>
 *   <li>{@link #drain()} (the caller's thread) checks the output against the input with {@link DuplexMonitor}.</li>
 * </ul>
 */
public final class AudioDuplex implements AutoCloseable {
    public static final String CAPTURE_RING = "duplex-capture";
    public static final String PLAYBACK_RING = "duplex-playback";
    public static final String MONITOR_RING = "duplex-monitor";
    /** 1 MiB each: 5.5 s of mono float audio at 48 kHz, far more than any lead. */
    static final long AUDIO_RING_BYTES = 1L << 20;
    /** 8 MiB: 10.9 s of monitor frames (16 bytes each) at 48 kHz, how long the checking thread may fall behind. */
    static final long MONITOR_RING_BYTES = 8L << 20;
    /** The effect's tick: short next to a period (2.67 ms), so a lead of a few periods is enough on a quiet machine. */
    public static final Duration TICK = Duration.ofMillis(1);
    /** The adaptive lead's bounds, in periods. */
    static final int ADAPTIVE_MIN = 2;
    static final int ADAPTIVE_MAX = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** A fixed lead of {@code periods}, or an adaptive one. */
    public record LeadChoice(boolean isAdaptive, int periods) {
        public LeadChoice {
            if (!isAdaptive && periods < 1) {
                throw new IllegalArgumentException("a fixed lead is at least 1 period, got " + periods);
            }
        }

        public static LeadChoice fixed(int periods) {
            return new LeadChoice(false, periods);
        }

        public static LeadChoice adaptive() {
            return new LeadChoice(true, 0);
        }
    }

    /** Everything counted once every client has stopped and the effect has moved what was left. */
    public record Result(JackClient.Stats duplex, JackClient.Stats sweep, JackClient.Stats plain, long captureOverruns,
                         long playbackUnderruns, long monitorOverruns, long framesProcessed, long silenceFrames,
                         long playbackLeft, long captureLeft, long lostInsertions) {
    }

    private final HostRing capture;
    private final HostRing playback;
    private final HostRing monitorRing;
    private final InsertedSilence inserted;
    private final JackClient duplex;
    private final JackClient sweep;
    private final JackClient plain;
    private final DuplexEffect effect;
    private final DuplexMonitor monitor;
    private final GcPauses gcPauses;
    private final ActorRef effectRef;
    private final CallGate finishGate;
    private final PlaybackLead lead;
    private final int sampleRate;
    private final int periodFrames;

    private AudioDuplex(Parts parts) {
        this.capture = parts.capture;
        this.playback = parts.playback;
        this.monitorRing = parts.monitorRing;
        this.inserted = parts.inserted;
        this.duplex = parts.duplex;
        this.sweep = parts.sweep;
        this.plain = parts.plain;
        this.effect = parts.effect;
        this.monitor = parts.monitor;
        this.gcPauses = parts.gcPauses;
        this.effectRef = parts.effectRef;
        this.finishGate = parts.finishGate;
        this.lead = parts.lead;
        this.sampleRate = parts.sampleRate;
        this.periodFrames = parts.periodFrames;
    }

    /** What {@link #start} builds, so a failure half-way can close what is open. */
    private static final class Parts {
        HostRing capture;
        HostRing playback;
        HostRing monitorRing;
        InsertedSilence inserted;
        JackClient duplex;
        JackClient sweep;
        JackClient plain;
        DuplexEffect effect;
        DuplexMonitor monitor;
        GcPauses gcPauses;
        ActorRef effectRef;
        CallGate finishGate;
        PlaybackLead lead;
        int sampleRate;
        int periodFrames;

        void close() {
            closeAll(finishGate, effectRef == null ? null : effectRef::kill, sweep, duplex, plain, gcPauses, monitorRing, playback,
                    capture, inserted);
        }
    }

    /**
     * Exports the rings, opens the clients on {@code serverName}, spawns the effect (and waits until it has primed its
     * lead), activates the plain, duplex and sweep clients and connects the sweep to the duplex input.
     *
     * @param wav       where the output goes (the first {@code wavSeconds}), or null
     */
    public static AudioDuplex start(ActorRuntime runtime, HostAbi abi, String serverName, LeadChoice choice, Path wav,
                                    int wavSeconds) throws IOException {
        Parts parts = new Parts();
        try {
            parts.capture = abi.exportRing(CAPTURE_RING, AUDIO_RING_BYTES);
            parts.playback = abi.exportRing(PLAYBACK_RING, AUDIO_RING_BYTES);
            parts.monitorRing = abi.exportRing(MONITOR_RING, MONITOR_RING_BYTES);
            parts.inserted = new InsertedSilence();
            parts.duplex = JackClient.openDuplex(abi.table(), serverName, "duplex", CAPTURE_RING, PLAYBACK_RING, MONITOR_RING);
            parts.sweep = JackClient.openSweep(serverName, "sweep", AudioRingDemo.SWEEP.f0(), AudioRingDemo.SWEEP.f1(),
                    AudioRingDemo.SWEEP.seconds());
            parts.plain = JackClient.openPlain(serverName, "plain");
            JackClient.Stats stats = parts.duplex.stats();
            parts.sampleRate = stats.sampleRate();
            parts.periodFrames = stats.periodFrames();
            long periodNanos = TimeUnit.SECONDS.toNanos(1) * parts.periodFrames / parts.sampleRate;
            parts.lead = choice.isAdaptive()
                    ? PlaybackLead.adaptive(periodNanos, TICK.toNanos(), ADAPTIVE_MIN, ADAPTIVE_MAX)
                    : PlaybackLead.fixed(periodNanos, TICK.toNanos(), choice.periods());
            parts.gcPauses = choice.isAdaptive() ? new GcPauses() : null;
            int inFlight = (int) (2 * AUDIO_RING_BYTES / Float.BYTES);
            parts.monitor = new DuplexMonitor(parts.monitorRing.ring(), parts.inserted, GainLowPass.standard(), inFlight,
                    wav == null ? null : new WavWriter(wav, parts.sampleRate), (long) wavSeconds * parts.sampleRate);
            DuplexEffect effect = new DuplexEffect(parts.capture.ring(), parts.playback.ring(), parts.inserted,
                    GainLowPass.standard(), parts.lead, parts.gcPauses, parts.periodFrames, TICK);
            parts.effect = effect;
            parts.effectRef = AudioActors.spawn(runtime, "duplex-effect", effect);
            parts.finishGate = CallGate.open(parts.effectRef, (context, arguments) -> effect.finish());
            awaitPrimed(effect);
            parts.plain.activate();
            parts.duplex.activate();
            parts.sweep.activate();
            parts.sweep.connectTo(parts.duplex);
            return new AudioDuplex(parts);
        } catch (IOException | RuntimeException | Error e) {
            parts.close();
            throw e;
        }
    }

    /** The effect primes its lead in its first turn; the callback should not start before (it would play silence). */
    private static void awaitPrimed(DuplexEffect effect) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (effect.framesWritten() == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the duplex effect did not start within " + TIMEOUT);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling with a deadline, not synchronisation
        }
    }

    /** Checks what the callback has logged since the last call (the caller's thread; one thread at a time). */
    public long drain() {
        return monitor.drain();
    }

    /**
     * Stops the sweep, duplex and plain clients (their callbacks end), lets the effect move what was captured, checks
     * the rest of the monitor ring, closes the WAV file and counts.
     */
    public Result stop() throws IOException {
        sweep.deactivate();
        duplex.deactivate();
        plain.deactivate();
        CallResult finished = finishGate.call(null, TIMEOUT);
        if (!finished.isOk()) {
            throw new IllegalStateException("the duplex effect did not finish: " + finished.status() + " " + finished.detail());
        }
        monitor.drain();
        monitor.closeWav();
        return new Result(duplex.stats(), sweep.stats(), plain.stats(), capture.ring().overrunCount(),
                playback.ring().underrunCount(), duplex.stats().timingOverruns(), effect.framesProcessed(), effect.silenceFrames(),
                playback.ring().readable() / Float.BYTES, capture.ring().readable() / Float.BYTES, inserted.lost());
    }

    public DuplexEffect effect() {
        return effect;
    }

    public DuplexMonitor monitor() {
        return monitor;
    }

    public JackClient duplexClient() {
        return duplex;
    }

    public JackClient plainClient() {
        return plain;
    }

    public PlaybackLead lead() {
        return lead;
    }

    public int sampleRate() {
        return sampleRate;
    }

    public int periodFrames() {
        return periodFrames;
    }

    /** Frames in the capture ring now. */
    public long captureFillFrames() {
        return capture.ring().readable() / Float.BYTES;
    }

    /** Frames in the playback ring now. */
    public long playbackFillFrames() {
        return playback.ring().readable() / Float.BYTES;
    }

    /** Playback underruns so far: the callback's count, in the playback ring's header. */
    public long playbackUnderruns() {
        return playback.ring().underrunCount();
    }

    /** Capture overruns so far: the callback's count, in the capture ring's header. */
    public long captureOverruns() {
        return capture.ring().overrunCount();
    }

    /** Closes the clients (which releases their ring references), kills the effect, unexports the rings. */
    @Override
    public void close() {
        closeAll(finishGate, effectRef::kill, sweep, duplex, plain, gcPauses, monitorRing, playback, capture, inserted);
    }

    private static void closeAll(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the duplex sample failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
