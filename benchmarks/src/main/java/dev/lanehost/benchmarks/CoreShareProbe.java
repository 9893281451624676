package dev.lanehost.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Measures whether each vCPU has its physical core to itself right now: one thread per vCPU runs a loop of six
 * independent chains of additions (several instructions a cycle, which a second hardware thread on the core takes
 * issue slots from) and reports its CPU time an iteration.
 *
 * <p>Why: the host runs another tenant's vCPU on the other hardware thread of the core ours runs on, for a few seconds
 * to a minute at a time. That tenant takes issue slots, not time: the vCPU is not descheduled (no steal time, no
 * foreign CPU in {@code /proc/stat}), its thread's CPU time just buys fewer instructions. A loop bound by one chain of
 * dependent operations hardly notices; one that issues as much as the core allows reads ~1.5× slower, and so does a
 * runtime's turn, which issues much the same way (benchmarks/HISTORY.md, "Actors against Apache Pekko"). So a
 * benchmark's figure moves with it, apart from the placement {@link PlacementProbe} reads, and a ratio is read between
 * figures whose cores were to themselves, or both shared.
 *
 * <p>A reading is the slowest vCPU's nanoseconds an iteration, the best of {@value #RUNS} runs of {@value #ITERATIONS}
 * iterations on each (about a millisecond in all, by thread CPU time, so a preemption does not count). The readings
 * are compared with the fastest of the same run: a reading more than {@link #SHARED_FROM} times it is "shared". The
 * loop is compiled before the first reading.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.CoreShareProbe [seconds=10]
 * </pre>
 * prints a reading every 100 ms and how many of them were shared.
 */
public final class CoreShareProbe {
    /** Above this many times the run's fastest reading, a vCPU's core is shared. Between the two levels seen here. */
    public static final double SHARED_FROM = 1.15;
    private static final int ITERATIONS = 100_000;
    private static final int RUNS = 3;
    private static final int THREADS = Runtime.getRuntime().availableProcessors();
    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();
    /** Where the loops' results go, so the JIT keeps them. */
    private static volatile long sink;

    static {
        for (int i = 0; i < 40; i++) { // C2 compiles the loop before the first reading
            sink += adds(ITERATIONS);
        }
    }

    private CoreShareProbe() {
    }

    /** One reading: nanoseconds an iteration on each vCPU's thread. */
    public record Reading(double[] nanosPerIteration) {
        /** The slowest vCPU's: a benchmark of every vCPU runs at the pace of its most shared core. */
        public double slowest() {
            return Arrays.stream(nanosPerIteration).max().orElse(Double.NaN);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder();
            for (double nanos : nanosPerIteration) {
                text.append(text.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.3f", nanos));
            }
            return text + " ns an iteration";
        }
    }

    /** True if {@code reading} is more than {@link #SHARED_FROM} times {@code fastest} (the run's fastest reading). */
    public static boolean shared(double reading, double fastest) {
        return reading > SHARED_FROM * fastest;
    }

    /** Runs the loop on one thread per vCPU at once and returns each one's time an iteration. */
    public static Reading measure() throws InterruptedException {
        double[] nanos = new double[THREADS];
        CountDownLatch ready = new CountDownLatch(THREADS);
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int slot = t;
            threads[t] = new Thread(() -> {
                ready.countDown();
                try {
                    ready.await(); // all threads start together, so each runs beside the others, one per vCPU
                } catch (InterruptedException e) {
                    return; // nobody interrupts these threads; the reading would be 0
                }
                long best = Long.MAX_VALUE;
                for (int run = 0; run < RUNS; run++) {
                    long start = THREAD_CPU.getCurrentThreadCpuTime();
                    sink += adds(ITERATIONS);
                    best = Math.min(best, THREAD_CPU.getCurrentThreadCpuTime() - start);
                }
                nanos[slot] = (double) best / ITERATIONS;
            }, "core-share-probe-" + t);
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return new Reading(nanos);
    }

    /** Six independent chains of additions and exclusive ors: several instructions a cycle. */
    private static long adds(int iterations) {
        long a = 1;
        long b = 2;
        long c = 3;
        long d = 4;
        long e = 5;
        long f = 6;
        for (int k = 0; k < iterations; k++) {
            a += k ^ 0x11;
            b += k ^ 0x22;
            c += k ^ 0x33;
            d += k ^ 0x44;
            e += k ^ 0x55;
            f += k ^ 0x66;
            a ^= k;
            b ^= k;
            c ^= k;
            d ^= k;
            e ^= k;
            f ^= k;
        }
        return a ^ b ^ c ^ d ^ e ^ f;
    }

    public static void main(String[] args) throws InterruptedException {
        int seconds = Arguments.count(args, 0, "seconds", 10, 1, "CoreShareProbe [seconds=10]");
        Reading[] readings = new Reading[seconds * 10];
        double fastest = Double.MAX_VALUE;
        for (int i = 0; i < readings.length; i++) {
            readings[i] = measure();
            fastest = Math.min(fastest, Arrays.stream(readings[i].nanosPerIteration()).min().orElseThrow());
            System.out.println(i * 100 + " ms: " + readings[i]);
            Thread.sleep(100); // a pause between readings of a probe, not a synchronisation
        }
        int shared = 0;
        for (Reading reading : readings) {
            shared += shared(reading.slowest(), fastest) ? 1 : 0;
        }
        System.out.printf(Locale.ROOT,
                "fastest %.3f ns an iteration; %d of %d readings shared (slowest vCPU above %.2fx it)%n", fastest,
                shared, readings.length, SHARED_FROM);
    }
}
