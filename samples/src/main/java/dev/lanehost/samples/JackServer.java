package dev.lanehost.samples;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A private JACK server for samples and tests: {@code jackd -n <name> --no-realtime -d dummy -r <rate> -p <period>},
 * a server with no sound card that runs its process cycle from a timer. Its output goes to a log file.
 * {@link #close()} stops it (and kills it if it does not stop).
 */
public final class JackServer implements AutoCloseable {
    /** How often {@link #start} asks whether the server accepts clients: short next to jackd's start-up. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String name;
    private final Process process;
    private final Path log;

    private JackServer(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** The {@code jackd} on the PATH, if any. */
    public static Optional<Path> jackd() {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!directory.isBlank()) {
                Path candidate = Path.of(directory, "jackd");
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts jackd under {@code name} and waits until a client can connect, at most {@code startTimeout}.
     *
     * @throws IOException if jackd is not on the PATH or could not be started, ended early, or did not accept
     *                     clients in time (the message quotes the log)
     */
    public static JackServer start(String name, int sampleRate, int periodFrames, Path log, Duration startTimeout)
            throws IOException {
        Path jackd = jackd().orElseThrow(() -> new IOException("jackd is not on the PATH (Debian: apt-get install jackd2)"));
        String unavailable = JackClient.unavailableReason();
        if (unavailable != null) {
            throw new IOException(unavailable);
        }
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(List.of(jackd.toString(), "-n", name, "--no-realtime", "-d", "dummy",
                "-r", Integer.toString(sampleRate), "-p", Integer.toString(periodFrames)))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        JackServer server = new JackServer(name, process, log);
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!JackClient.serverReady(name)) {
            if (!process.isAlive()) {
                throw new IOException("jackd ended with status " + process.exitValue() + " before accepting clients: "
                        + server.logTail());
            }
            if (System.nanoTime() - deadline > 0) {
                server.close();
                throw new IOException("jackd did not accept clients within " + startTimeout + ": " + server.logTail());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return server;
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    /** Lines of jackd's log containing {@code text} (e.g. "XRun"), for reports. */
    public long logLinesContaining(String text) throws IOException {
        try (var lines = Files.lines(log)) {
            return lines.filter(line -> line.contains(text)).count();
        }
    }

    /**
     * How often jackd logged that {@code client} had not finished its cycle at the deadline, by the state it was
     * in: {@code running} means its own callback was still running (its own fault), {@code triggered} means it
     * had not even been scheduled yet (the machine was busy, or a client before it in the graph was late).
     */
    public record LateCycles(long running, long triggered) {
    }

    /** {@link LateCycles} of {@code client}, from jackd's log. */
    public LateCycles lateCycles(String client) throws IOException {
        String prefix = "client = " + client + " was not finished, state = ";
        return new LateCycles(logLinesContaining(prefix + "Running"), logLinesContaining(prefix + "Triggered"));
    }

    /** Stops jackd: SIGTERM, then SIGKILL if it has not ended within a few seconds. Idempotent. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
