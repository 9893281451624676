package dev.lanehost.benchmarks;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.WorkerStats;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the time of ping-pong between 64 pairs goes: the batches of {@code PingPongBenchmark} (64 pairs, one ball each,
 * {@value #ROUND_TRIPS} round trips a ball) on a HOSTED runtime of {@code workers} workers, and for the second half of
 * the batches each worker's turns, its CPU time per turn (thread CPU time ÷ turns: what one message costs the worker
 * that runs it, idle spins included), how busy it was (CPU ÷ wall), its steals and steal attempts, and how many
 * messages crossed between workers. The batches' rate is the benchmark's round trips per second, so runs with 1 and 2
 * workers say how far two workers scale and what a turn costs in one JVM against the next. With {@code every} above 0
 * it also prints the rate of every {@code every}th batch as it ends, and a {@link CoreShareProbe} reading after it
 * ({@code batch 120: 13.6 M, cores 2.671 2.702 ns an iteration}), so a run shows how the rate moves within one JVM, and
 * with the other tenant on our cores (benchmarks/HISTORY.md, "Actors against Apache Pekko", says what it showed).
 * With {@code shape} {@code alone}, each ball's ping sends it to itself instead, as many turns a batch: a turn with no
 * switch from one actor to the other, so the two shapes' CPU a turn differ by what a pair's switch costs (the rate then
 * counts two turns as a round trip).
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.PingPongCpu \
 *       [batches=1000] [workers=2] [every=0] [shape=pairs|alone]
 * </pre>
 *
 * <p>Each message notes the thread that handled its ball last (a field of the ball, compared and written in the turn):
 * a few ns a turn of its own, the same in every run.
 */
public final class PingPongCpu {
    private static final String USAGE = "PingPongCpu [batches=1000] [workers=2] [every=0] [shape=pairs|alone]";
    static final int PAIRS = 64;
    static final int ROUND_TRIPS = 1_000;

    /** One pair's ball. Only its pair touches it in flight. */
    private static final class Ball {
        final ActorRef ping;
        final ActorRef pong;
        final CountDownLatch done;
        final AtomicLong crossed;
        Thread last;
        /** Turns of ping left: one a round trip, or, when ping sends the ball to itself, one a message. */
        int left;

        Ball(ActorRef ping, ActorRef pong, CountDownLatch done, AtomicLong crossed) {
            this.ping = ping;
            this.pong = pong;
            this.done = done;
            this.crossed = crossed;
            this.left = ping == pong ? 2 * ROUND_TRIPS : ROUND_TRIPS;
        }

        /** Counts a message that reached another worker than the ball's last one. */
        void arrived() {
            Thread here = Thread.currentThread();
            if (last != here) {
                crossed.incrementAndGet();
                last = here;
            }
        }
    }

    private PingPongCpu() {
    }

    public static void main(String[] args) throws InterruptedException {
        int batches = Arguments.count(args, 0, "batches", 1000, 2, USAGE);
        int workers = Arguments.count(args, 1, "workers", 2, 1, USAGE);
        int every = Arguments.count(args, 2, "every", 0, 0, USAGE);
        String shape = args.length > 3 ? args[3] : "pairs";
        if (!shape.equals("pairs") && !shape.equals("alone")) {
            Arguments.refuse("shape must be pairs or alone, got '" + shape + "'", USAGE);
        }
        boolean alone = shape.equals("alone");
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(workers).build()) {
            ActorRef[] pings = new ActorRef[PAIRS];
            ActorRef[] pongs = new ActorRef[PAIRS];
            for (int i = 0; i < PAIRS; i++) {
                pings[i] = runtime.spawn("ping", () -> (context, message) -> {
                    Ball ball = (Ball) message;
                    ball.arrived();
                    if (--ball.left == 0) {
                        ball.done.countDown();
                    } else {
                        ball.pong.tell(ball);
                    }
                });
                pongs[i] = runtime.spawn("pong", () -> (context, message) -> {
                    Ball ball = (Ball) message;
                    ball.arrived();
                    ball.ping.tell(ball);
                });
            }
            Thread[] threads = workerThreads(runtime.metrics().workers());
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            double[] rates = new double[batches - batches / 2];
            long[] turns = new long[workers];
            long[] steals = new long[workers];
            long[] attempts = new long[workers];
            long[] cpu = new long[workers];
            long wall = 0;
            long crossedTotal = 0;
            for (int batch = 0; batch < batches; batch++) {
                boolean measured = batch >= batches / 2;
                List<WorkerStats> before = runtime.metrics().workers();
                long[] cpuBefore = cpuTimes(mx, threads);
                CountDownLatch done = new CountDownLatch(PAIRS);
                AtomicLong crossed = new AtomicLong();
                long start = System.nanoTime();
                for (int i = 0; i < PAIRS; i++) {
                    if (alone) {
                        pings[i].tell(new Ball(pings[i], pings[i], done, crossed));
                    } else {
                        pongs[i].tell(new Ball(pings[i], pongs[i], done, crossed));
                    }
                }
                if (!done.await(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("batch " + batch + ": " + done.getCount() + " balls still in flight after 120 s");
                }
                long took = System.nanoTime() - start;
                if (every > 0 && batch % every == 0) {
                    System.out.printf("batch %d: %.1f M, cores %s%n", batch, (double) PAIRS * ROUND_TRIPS * 1e3 / took,
                            CoreShareProbe.measure());
                }
                if (measured) {
                    rates[batch - batches / 2] = (double) PAIRS * ROUND_TRIPS * 1e9 / took;
                    wall += took;
                    crossedTotal += crossed.get() - PAIRS; // each ball's first message finds no last thread
                    List<WorkerStats> after = runtime.metrics().workers();
                    long[] cpuAfter = cpuTimes(mx, threads);
                    for (int w = 0; w < workers; w++) {
                        turns[w] += after.get(w).turns() - before.get(w).turns();
                        steals[w] += after.get(w).steals() - before.get(w).steals();
                        attempts[w] += after.get(w).stealAttempts() - before.get(w).stealAttempts();
                    }
                    for (int w = 0; w < workers; w++) {
                        cpu[w] += cpuAfter[w] - cpuBefore[w];
                    }
                }
            }
            Arrays.sort(rates);
            System.out.printf("%d workers, %d batches measured: round trips/s median %.1f M (p10 %.1f, p90 %.1f); "
                            + "messages crossing workers %.4f %%%n", workers, rates.length, rates[rates.length / 2] / 1e6,
                    rates[rates.length / 10] / 1e6, rates[rates.length * 9 / 10] / 1e6,
                    100.0 * crossedTotal / (2.0 * PAIRS * ROUND_TRIPS * rates.length));
            for (int w = 0; w < workers; w++) {
                System.out.printf("  %s: %d turns, CPU %.1f ns a turn, busy %.2f of the wall time, %d steals in %d attempts%n",
                        threads[w].getName(), turns[w], (double) cpu[w] / Math.max(1, turns[w]), (double) cpu[w] / wall, steals[w],
                        attempts[w]);
            }
        }
    }

    /** Each worker's thread, in the order of the runtime's worker metrics. */
    private static Thread[] workerThreads(List<WorkerStats> stats) {
        Thread[] threads = new Thread[stats.size()];
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            for (int w = 0; w < threads.length; w++) {
                if (thread.getName().equals(stats.get(w).thread())) {
                    threads[w] = thread;
                }
            }
        }
        for (int w = 0; w < threads.length; w++) {
            if (threads[w] == null) {
                throw new IllegalStateException("no thread named " + stats.get(w).thread() + " for worker " + w);
            }
        }
        return threads;
    }

    private static long[] cpuTimes(ThreadMXBean mx, Thread[] threads) {
        long[] times = new long[threads.length];
        for (int t = 0; t < threads.length; t++) {
            times[t] = mx.getThreadCpuTime(threads[t].threadId());
        }
        return times;
    }
}
