package dev.lanehost.samples;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The audio-ring sample's JACK producer: a private {@code jackd} with the dummy driver ({@link JackServer}, no sound
 * card needed) and the JACK host's ring client ({@link JackClient#openRing}), whose process callback writes the
 * sweep and the timing records into the rings and never enters the JVM.
 */
public final class JackAudio implements AudioProducer {
    /** How long jackd may take to accept clients: it starts in well under a second, but a busy machine is slower. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final JackServer server;
    private final JackClient client;
    private final Sweep sweep;
    private final int periodFrames;
    private Counts last;

    private JackAudio(JackServer server, JackClient client, Sweep sweep, int periodFrames) {
        this.server = server;
        this.client = client;
        this.sweep = sweep;
        this.periodFrames = periodFrames;
    }

    /** Null if this machine can run it (jackd on the PATH, the JACK host library built), else why not. */
    public static String unavailableReason() {
        String library = JackClient.unavailableReason();
        if (library != null) {
            return library;
        }
        return JackServer.jackd().isPresent() ? null : "jackd is not on the PATH (Debian: apt-get install jackd2)";
    }

    /**
     * Starts {@code jackd -n <name> --no-realtime -d dummy -r <rate> -p <periodFrames>} (its log under
     * {@code logDirectory}), opens and activates the ring client.
     *
     * @throws IOException if jackd cannot be started or does not accept clients (the message quotes its log)
     */
    public static JackAudio start(MemorySegment table, String audioRing, String timingRing, double f0, double f1,
                                  double sweepSeconds, int rate, int periodFrames, Path logDirectory) throws IOException {
        String name = "lanehost-audio-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JackServer server = JackServer.start(name, rate, periodFrames, logDirectory.resolve(name + ".log"), START_TIMEOUT);
        JackClient client = null;
        try {
            client = JackClient.openRing(table, name, "lanehost-ring", audioRing, timingRing, f0, f1, sweepSeconds);
            JackClient.Stats stats = client.stats();
            Sweep sweep = Sweep.of(f0, f1, stats.sampleRate(), sweepSeconds);
            client.activate();
            return new JackAudio(server, client, sweep, stats.periodFrames());
        } catch (RuntimeException | Error e) {
            if (client != null) {
                client.close();
            }
            server.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "JACK (private jackd, dummy driver)";
    }

    @Override
    public Sweep sweep() {
        return sweep;
    }

    @Override
    public int periodFrames() {
        return periodFrames;
    }

    /** jackd's log. */
    public Path log() {
        return server.log();
    }

    @Override
    public Counts counts() {
        if (last != null) {
            return last;
        }
        JackClient.Stats s = client.stats();
        return new Counts(s.callbacks(), s.samplesWritten(), s.ringOverruns(), s.timingOverruns(), s.xruns(), 0, 0,
                !s.shutDown());
    }

    /** Deactivates and closes the client (no callback writes after this), then stops jackd. Idempotent. */
    @Override
    public void close() {
        if (last != null) {
            return;
        }
        try {
            client.deactivate();
            Counts c = counts();
            last = new Counts(c.periods(), c.samplesWritten(), c.ringOverruns(), c.timingOverruns(), c.xruns(), 0, 0, false);
            client.close();
        } finally {
            server.close();
        }
    }
}
