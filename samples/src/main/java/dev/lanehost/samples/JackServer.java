package dev.lanehost.samples;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A private JACK server for samples and tests: {@code jackd -n <name> --no-realtime -d dummy -r <rate> -p <period>},
 * a server with no sound card that runs its process cycle from a timer, or with real-time scheduling
 * ({@code -R -P <priority>}: the server's threads and its clients' process threads run SCHED_FIFO, which needs
 * root or an rtprio limit). Its output goes to a log file. {@link #close()} stops it (and kills it if it does not
 * stop).
 */
public final class JackServer implements AutoCloseable {
    /** How often {@link #start} asks whether the server accepts clients: short next to jackd's start-up. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String name;
    private final Process process;
    private final Path log;
    private final int realtimePriority;

    private JackServer(String name, Process process, Path log, int realtimePriority) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.realtimePriority = realtimePriority;
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
        return start(name, sampleRate, periodFrames, 0, log, startTimeout);
    }

    /**
     * As {@link #start(String, int, int, Path, Duration)}, with real-time scheduling when {@code realtimePriority}
     * is positive ({@code jackd -R -P <priority>}; JACK gives its clients' process threads a priority just below);
     * 0 means {@code --no-realtime}. A server that cannot get real-time priority may refuse to start: the exception
     * says so, and the caller may start again with 0.
     */
    public static JackServer start(String name, int sampleRate, int periodFrames, int realtimePriority, Path log,
                                   Duration startTimeout) throws IOException {
        if (realtimePriority < 0 || realtimePriority > 99) {
            throw new IllegalArgumentException("a real-time priority is 1..99 (0 for none), got " + realtimePriority);
        }
        Path jackd = jackd().orElseThrow(() -> new IOException("jackd is not on the PATH (Debian: apt-get install jackd2)"));
        String unavailable = JackClient.unavailableReason();
        if (unavailable != null) {
            throw new IOException(unavailable);
        }
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> command = new ArrayList<>(List.of(jackd.toString(), "-n", name));
        if (realtimePriority > 0) {
            command.addAll(List.of("-R", "-P", Integer.toString(realtimePriority)));
        } else {
            command.add("--no-realtime");
        }
        command.addAll(List.of("-d", "dummy", "-r", Integer.toString(sampleRate), "-p", Integer.toString(periodFrames)));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        JackServer server = new JackServer(name, process, log, realtimePriority);
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

    /** The priority it was asked to run its real-time threads at, 0 for {@code --no-realtime}. */
    public int realtimePriority() {
        return realtimePriority;
    }

    /** jackd's process id (its threads are under {@code /proc/<pid>/task}). */
    public long pid() {
        return process.pid();
    }

    /** Each of jackd's threads with its scheduling as the kernel has it: "tid name policy", one a line. */
    public List<String> threadScheduling() throws IOException {
        List<String> threads = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
            for (Path task : tasks.sorted().toList()) {
                long tid = Long.parseLong(task.getFileName().toString());
                try {
                    threads.add(tid + " " + Files.readString(task.resolve("comm")).strip() + " " + ThreadScheduling.of(pid(), tid));
                } catch (IOException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return threads;
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
