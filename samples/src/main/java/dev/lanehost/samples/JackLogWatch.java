package dev.lanehost.samples;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Dates jackd's log lines, which carry no time of their own: a daemon thread reads what jackd appended every
 * {@link #POLL_NANOS} and stamps each new line with {@link System#nanoTime()} (the clock of the JACK host's slow
 * callbacks and of the JVM log's {@code timenanos}), so a late cycle can be lined up with a slow callback or a GC
 * phase. A stamp is at most one poll (plus jackd's own buffering) after the event.
 */
public final class JackLogWatch implements AutoCloseable {
    /** Short next to the minutes of a run and the tens of milliseconds of a GC cycle; cheap for a thread that reads a file. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One line of jackd's log and when it was read. */
    public record Line(long nanos, String text) {
    }

    private final Path log;
    /** The log's length when the watch started: lines from there on are read. */
    private final long start;
    private final List<Line> lines = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private JackLogWatch(Path log) {
        this.log = log;
        this.start = log.toFile().length(); // 0 for a file not there yet
        this.thread = Thread.ofPlatform().name("jackd-log-watch").daemon().unstarted(this::watch);
    }

    /** Starts watching {@code log} from its end at this call. */
    public static JackLogWatch start(Path log) {
        JackLogWatch watch = new JackLogWatch(log);
        watch.thread.start();
        return watch;
    }

    /** The lines read so far that contain {@code text}, in order. */
    public synchronized List<Line> linesContaining(String text) {
        return lines.stream().filter(line -> line.text().contains(text)).toList();
    }

    /** Stops the watch once it has read every line jackd wrote before this call. Idempotent. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        StringBuilder partial = new StringBuilder();
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long position = start;
            byte[] buffer = new byte[8192];
            while (true) {
                boolean stopping = !running; // read before the file: what was written before close() is read
                long length = file.length();
                if (length > position) {
                    file.seek(position);
                    int n = file.read(buffer, 0, (int) Math.min(buffer.length, length - position));
                    if (n > 0) {
                        position += n;
                        take(partial.append(new String(buffer, 0, n, StandardCharsets.UTF_8)), System.nanoTime());
                        continue; // more may be waiting
                    }
                }
                if (stopping) {
                    break;
                }
                LockSupport.parkNanos(POLL_NANOS); // polling a file, not synchronisation
            }
        } catch (IOException e) {
            synchronized (this) {
                lines.add(new Line(System.nanoTime(), "(jackd log watch stopped: " + e.getMessage() + ")"));
            }
        }
    }

    private void take(StringBuilder text, long nanos) {
        int end;
        while ((end = text.indexOf("\n")) >= 0) {
            String line = text.substring(0, end);
            text.delete(0, end + 1);
            synchronized (this) {
                lines.add(new Line(nanos, line));
            }
        }
    }
}
