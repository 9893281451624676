package dev.lanehost.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jctools.queues.MpscArrayQueue;

/**
 * What each object a blocking call hands to another core costs, apart from any runtime: a caller thread queues a call
 * to a server thread that busy-spins on a JCTools MPSC queue and answers into the call (the floor of
 * {@link BlockingCallLatency}), in three shapes, every call timed, interleaved round by round:
 * <ul>
 *   <li>{@code direct}: the call itself is queued, its arguments a constant both cores have read (the floor);</li>
 *   <li>{@code letter}: a letter holding the call is queued, as an actor's mailbox queues a task's letter;</li>
 *   <li>{@code letter+list}: and the arguments are a new {@code ArrayList}, as the Java entry's plain copy makes them.</li>
 * </ul>
 * Each object the caller makes and the server reads first is a dependent miss on the server's side: the difference
 * between the shapes' p50 is its price in the placement of the round.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.lanehost.benchmarks.CallShapeCost [rounds=10] [calls=200000]}
 */
public final class CallShapeCost {
    private static final List<Object> ARGS = List.of(7, "frame");
    private static final String[] SHAPES = {"direct", "letter", "letter+list"};
    private static final int WARMUP_ROUNDS = 2;
    private static final int PROBE_ROUND_TRIPS = 20_000;
    private static final String USAGE = "CallShapeCost [rounds=10] [calls=200000]";

    private CallShapeCost() {
    }

    static final class Call {
        final Object args;
        volatile Object answer;

        Call(Object args) {
            this.args = args;
        }
    }

    /** What a mailbox queues for a task: an object that holds it. */
    record Letter(Call call) {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = Arguments.count(args, 0, "rounds", 10, 1, USAGE);
        int calls = Arguments.count(args, 1, "calls", 200_000, 1, USAGE);
        MpscArrayQueue<Object> queue = new MpscArrayQueue<>(1024);
        Thread server = Thread.ofPlatform().daemon().name("shape-server").start(() -> serve(queue));
        long[][] medians = new long[SHAPES.length][rounds];
        for (int round = 0; round < WARMUP_ROUNDS + rounds; round++) {
            String placement = PlacementProbe.measure(PROBE_ROUND_TRIPS).placement();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "round %2d %-6s", round - WARMUP_ROUNDS + 1, placement));
            for (int shape = 0; shape < SHAPES.length; shape++) {
                long median = medianOf(queue, shape, calls);
                line.append(String.format(Locale.ROOT, "  %s p50 %d ns", SHAPES[shape], median));
                if (round >= WARMUP_ROUNDS) {
                    medians[shape][round - WARMUP_ROUNDS] = median;
                }
            }
            if (round >= WARMUP_ROUNDS) {
                System.out.println(line);
            }
        }
        server.interrupt();
        long direct = median(medians[0]);
        System.out.println();
        for (int shape = 0; shape < SHAPES.length; shape++) {
            long median = median(medians[shape]);
            System.out.printf(Locale.ROOT, "%-12s median of round p50s %d ns (%+d ns against direct)%n", SHAPES[shape], median, median - direct);
        }
    }

    private static void serve(MpscArrayQueue<Object> queue) {
        while (!Thread.currentThread().isInterrupted()) {
            Object queued = queue.relaxedPoll();
            if (queued == null) {
                Thread.onSpinWait();
                continue;
            }
            Call call = queued instanceof Letter letter ? letter.call() : (Call) queued;
            call.answer = ((List<?>) call.args).get(0);
        }
    }

    /** The p50 of {@code calls} calls of one shape, each timed. */
    private static long medianOf(MpscArrayQueue<Object> queue, int shape, int calls) {
        long[] nanos = new long[calls];
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            Call call = new Call(shape == 2 ? new ArrayList<>(ARGS) : ARGS);
            Object queued = shape == 0 ? call : new Letter(call);
            while (!queue.offer(queued)) {
                Thread.onSpinWait();
            }
            while (call.answer == null) {
                Thread.onSpinWait();
            }
            nanos[i] = System.nanoTime() - start;
        }
        return median(nanos);
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
