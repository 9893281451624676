package dev.lanehost.samples;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A background thread making short-lived garbage at a steady rate, to keep the GC busy: 1 MiB arrays, paced against
 * absolute time (it allocates until it is at its rate since the start, then parks 1 ms), so a thread held back by a
 * busy machine catches up instead of falling short of the rate.
 */
public final class AllocationLoad implements AutoCloseable {
    private static final int CHUNK = 1 << 20;

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile long allocated;
    private volatile long elapsedNanos;

    private AllocationLoad(long bytesPerSecond) {
        thread = Thread.ofPlatform().daemon().name("garbage").start(() -> run(bytesPerSecond));
    }

    /** Starts making {@code megabytesPerSecond} × 10^6 bytes of garbage a second; null for 0. */
    public static AllocationLoad start(int megabytesPerSecond) {
        if (megabytesPerSecond < 0) {
            throw new IllegalArgumentException("garbage rate must be >= 0 MB/s, got " + megabytesPerSecond);
        }
        return megabytesPerSecond == 0 ? null : new AllocationLoad(megabytesPerSecond * 1_000_000L);
    }

    private void run(long bytesPerSecond) {
        long start = System.nanoTime();
        long bytes = 0;
        long sink = 0;
        while (running.get()) {
            long now = System.nanoTime();
            if (bytes < dueBytes(now - start, bytesPerSecond)) {
                byte[] garbage = new byte[CHUNK];
                garbage[(int) (bytes & (CHUNK - 1))] = 1;
                sink += garbage[0] + garbage.length;
                bytes += CHUNK;
                allocated = bytes;
                elapsedNanos = now - start;
            } else {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // pacing, not synchronisation
            }
        }
        if (sink == 42) {
            System.out.print(""); // keeps the allocations observable
        }
    }

    /**
     * Bytes due after {@code elapsedNanos} at {@code bytesPerSecond}. In microseconds first: nanoseconds times 10^8 B/s
     * passes Long.MAX_VALUE after 92 s, and the thread, finding a negative amount due, stopped allocating.
     */
    static long dueBytes(long elapsedNanos, long bytesPerSecond) {
        return TimeUnit.NANOSECONDS.toMicros(elapsedNanos) * bytesPerSecond / TimeUnit.SECONDS.toMicros(1);
    }

    /** The rate reached so far, in MB/s (10^6 bytes). */
    public double megabytesPerSecond() {
        long elapsed = elapsedNanos;
        return elapsed == 0 ? 0 : allocated / 1e6 / (elapsed / 1e9);
    }

    /** Stops the thread and waits for it. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }
}
