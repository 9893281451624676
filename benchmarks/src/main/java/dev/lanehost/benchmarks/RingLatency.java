package dev.lanehost.benchmarks;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * One-way latency of paced 512-byte messages from a Java producer thread to a Java consumer thread,
 * through {@link SpscByteRing}, Agrona's {@link OneToOneRingBuffer} and an LMAX Disruptor
 * {@link RingBuffer}, interleaved round by round so that every transport sees the same weather.
 *
 * <p>Protocol of one round:
 * <ol>
 *   <li>A fresh 1 MiB ring; the consumer thread starts spinning, then the producer thread starts.</li>
 *   <li>Every 10 us (busy-waiting on {@link System#nanoTime()}, never sleeping; a late producer
 *       catches up on the fixed schedule) the producer stamps {@code nanoTime()} into the first 8
 *       bytes of the message, little-endian, and copies the 512 bytes into the ring.</li>
 *   <li>The consumer copies each message out, then records {@code nanoTime() - stamp} into an
 *       HdrHistogram (3 significant digits). No coordinated-omission correction: the stamp is taken
 *       when the message is really sent.</li>
 * </ol>
 * Warm-up rounds run every transport first and are discarded; then each measured round runs the
 * transports in turn (A, B, C, A, B, C, ...), each round between two short {@link PlacementProbe}s
 * and with the CPU other processes took meanwhile measured ({@link CpuShare}). The summary is the
 * median across rounds of each percentile, over all rounds, over the undisturbed rounds that ran on
 * close vCPUs and over those on far ones, and the ratios ours / Agrona and ours / Disruptor (below 1
 * means ours is faster).
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
 * -cp benchmarks.jar dev.lanehost.benchmarks.RingLatency [rounds=7] [messages=100000] [warmup=2]}
 */
public final class RingLatency {
    static final int MESSAGE_LENGTH = 512;
    static final long INTERVAL_NANOS = 10_000;
    static final int CAPACITY = 1 << 20;

    /** Latencies above this are clamped (and would be worth a look): far beyond any plausible wake-up. */
    private static final long HIGHEST_RECORDABLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** A send this far behind its slot in the schedule counts as late (the producer was descheduled). */
    private static final long LATE_NANOS = INTERVAL_NANOS;

    /** Round trips of the placement probe just before and after each round: 1-10 ms. */
    private static final int ROUND_PROBE_ROUND_TRIPS = 20_000;

    private static final double[] PERCENTILES = {50, 90, 99, 99.9};
    private static final String[] PERCENTILE_NAMES = {"p50", "p90", "p99", "p99.9"};

    /** The stamp: the first 8 bytes of a message, little-endian, read and written the same way by all. */
    private static final VarHandle STAMP = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private RingLatency() {
    }

    // ------------------------------------------------------------------------------------ a round

    /** One transport's round: a fresh ring, a producer thread and a consumer thread. */
    abstract static class Round {
        final int messages;
        final Histogram histogram = new Histogram(HIGHEST_RECORDABLE_NANOS, 3);
        /** Set by the main thread on timeout, or by a failing side, so the other side's spin ends. */
        volatile boolean abort;
        volatile Throwable failure;
        /** Sends that went out more than one interval behind schedule. */
        long lateSends;
        final byte[] message = new byte[MESSAGE_LENGTH];
        final byte[] received = new byte[MESSAGE_LENGTH];

        Round(int messages) {
            this.messages = messages;
            for (int i = 0; i < MESSAGE_LENGTH; i++) {
                message[i] = TestHost.patternByte(i, 7);
            }
        }

        abstract String name();

        /** Sends {@code messages} paced messages; returns early if {@link #abort} is set. */
        abstract void produce();

        /** Receives {@code messages} messages and records their latencies; returns early on {@link #abort}. */
        abstract void consume();

        void close() {
        }

        /** Waits for the next slot of the schedule; returns the send time. */
        final long awaitSlot(long slot) {
            long now;
            while ((now = System.nanoTime()) < slot) {
                Thread.onSpinWait();
            }
            if (now - slot > LATE_NANOS) {
                lateSends++;
            }
            return now;
        }

        /** Records the latency of the message now in {@link #received}. */
        final void record(long receivedAt) {
            long latency = receivedAt - (long) STAMP.get(received, 0);
            histogram.recordValue(Math.max(0, Math.min(latency, HIGHEST_RECORDABLE_NANOS)));
        }

        final Histogram run() throws InterruptedException {
            Thread consumer = new Thread(this::consume, name() + "-consumer");
            Thread producer = new Thread(this::produce, name() + "-producer");
            for (Thread thread : List.of(consumer, producer)) {
                thread.setDaemon(true);
                thread.setUncaughtExceptionHandler((t, e) -> {
                    failure = e;
                    abort = true;
                });
            }
            consumer.start();
            producer.start();
            long patienceMillis = TimeUnit.NANOSECONDS.toMillis(3 * messages * INTERVAL_NANOS) + 30_000;
            producer.join(patienceMillis);
            consumer.join(patienceMillis);
            if (producer.isAlive() || consumer.isAlive()) {
                abort = true;
                producer.join(5_000);
                consumer.join(5_000);
                throw new IllegalStateException(name() + ": the round did not finish in " + patienceMillis + " ms");
            }
            close();
            if (failure != null) {
                throw new IllegalStateException(name() + ": a thread failed", failure);
            }
            if (histogram.getTotalCount() != messages) {
                throw new IllegalStateException(name() + ": recorded " + histogram.getTotalCount() + " of " + messages);
            }
            return histogram;
        }
    }

    /** Ours: a byte stream, so the consumer reassembles each 512-byte message from what a read returns. */
    static final class OursRound extends Round {
        private final SpscByteRing ring = SpscByteRing.allocate(CAPACITY);

        OursRound(int messages) {
            super(messages);
        }

        @Override
        String name() {
            return "ours";
        }

        @Override
        void produce() {
            SpscByteRing ring = this.ring;
            byte[] message = this.message;
            long slot = System.nanoTime() + INTERVAL_NANOS;
            for (int i = 0; i < messages; i++) {
                STAMP.set(message, 0, awaitSlot(slot));
                slot += INTERVAL_NANOS;
                int done = 0;
                while (done < MESSAGE_LENGTH) {
                    int n = ring.write(message, done, MESSAGE_LENGTH - done);
                    if (n == 0) {
                        if (abort) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    done += n;
                }
            }
        }

        @Override
        void consume() {
            SpscByteRing ring = this.ring;
            byte[] received = this.received;
            for (int i = 0; i < messages; i++) {
                int got = 0;
                while (got < MESSAGE_LENGTH) {
                    int n = ring.read(received, got, MESSAGE_LENGTH - got);
                    if (n == 0) {
                        if (abort) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    got += n;
                }
                record(System.nanoTime());
            }
        }

        @Override
        void close() {
            ring.close();
        }
    }

    /** Agrona's one-to-one ring: 512-byte messages of type 1. */
    static final class AgronaRound extends Round implements MessageHandler {
        private final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(
                BufferUtil.allocateDirectAligned(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 128)));

        AgronaRound(int messages) {
            super(messages);
        }

        @Override
        String name() {
            return "agrona";
        }

        @Override
        void produce() {
            OneToOneRingBuffer ring = this.ring;
            byte[] message = this.message;
            UnsafeBuffer source = new UnsafeBuffer(message);
            long slot = System.nanoTime() + INTERVAL_NANOS;
            for (int i = 0; i < messages; i++) {
                STAMP.set(message, 0, awaitSlot(slot));
                slot += INTERVAL_NANOS;
                while (!ring.write(1, source, 0, MESSAGE_LENGTH)) {
                    if (abort) {
                        return;
                    }
                    Thread.onSpinWait();
                }
            }
        }

        @Override
        void consume() {
            OneToOneRingBuffer ring = this.ring;
            int left = messages;
            while (left > 0) {
                int n = ring.read(this);
                if (n == 0) {
                    if (abort) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                left -= n;
            }
        }

        @Override
        public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            buffer.getBytes(index, received, 0, length);
            record(System.nanoTime());
        }
    }

    /** An LMAX Disruptor ring of 2048 events of byte[512], consumed with an EventPoller. */
    static final class DisruptorRound extends Round implements EventPoller.Handler<DisruptorRound.Slot> {
        static final class Slot {
            final byte[] bytes = new byte[MESSAGE_LENGTH];
        }

        private final RingBuffer<Slot> ring =
                RingBuffer.createSingleProducer(Slot::new, CAPACITY / MESSAGE_LENGTH, new YieldingWaitStrategy());
        private final EventPoller<Slot> poller = ring.newPoller();
        private int eventsReceived;

        DisruptorRound(int messages) {
            super(messages);
            ring.addGatingSequences(poller.getSequence());
        }

        @Override
        String name() {
            return "disruptor";
        }

        @Override
        void produce() {
            RingBuffer<Slot> ring = this.ring;
            byte[] message = this.message;
            long slot = System.nanoTime() + INTERVAL_NANOS;
            for (int i = 0; i < messages; i++) {
                STAMP.set(message, 0, awaitSlot(slot));
                slot += INTERVAL_NANOS;
                // next() parks while full and would never see abort: claim only when there is room.
                while (!ring.hasAvailableCapacity(1)) {
                    if (abort) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                long sequence = ring.next();
                System.arraycopy(message, 0, ring.get(sequence).bytes, 0, MESSAGE_LENGTH);
                ring.publish(sequence);
            }
        }

        @Override
        void consume() {
            EventPoller<Slot> poller = this.poller;
            try {
                while (eventsReceived < messages) {
                    if (poller.poll(this) != EventPoller.PollState.PROCESSING) {
                        if (abort) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public boolean onEvent(Slot event, long sequence, boolean endOfBatch) {
            System.arraycopy(event.bytes, 0, received, 0, MESSAGE_LENGTH);
            record(System.nanoTime());
            eventsReceived++;
            return true;
        }
    }

    // ------------------------------------------------------------------------------------- driver

    private interface RoundFactory {
        Round create(int messages);
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, Integer> options = parse(args, Map.of("rounds", 7, "messages", 100_000, "warmup", 2));
        int rounds = options.get("rounds");
        int messages = options.get("messages");
        int warmup = options.get("warmup");

        Map<String, RoundFactory> transports = new LinkedHashMap<>();
        transports.put("ours", OursRound::new);
        transports.put("agrona", AgronaRound::new);
        transports.put("disruptor", DisruptorRound::new);

        System.out.printf(Locale.ROOT, "RingLatency: %d-byte messages every %d us, Java thread -> Java thread, 1 MiB rings; "
                        + "%d warm-up + %d measured rounds of %,d messages, transports interleaved%n",
                MESSAGE_LENGTH, INTERVAL_NANOS / 1000, warmup, rounds, messages);
        System.out.println("placement before latency: " + PlacementProbe.measure(1_000_000));

        for (int w = 0; w < warmup; w++) {
            for (Map.Entry<String, RoundFactory> transport : transports.entrySet()) {
                Round round = transport.getValue().create(messages);
                Histogram h = round.run();
                System.out.printf(Locale.ROOT, "warm-up %d %-9s %s%n", w + 1, transport.getKey(), describe(h, round.lateSends));
            }
        }

        Map<String, List<RoundResult>> results = new LinkedHashMap<>();
        transports.keySet().forEach(name -> results.put(name, new ArrayList<>()));
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, RoundFactory> transport : transports.entrySet()) {
                double before = PlacementProbe.measure(ROUND_PROBE_ROUND_TRIPS).medianNanos();
                Round round = transport.getValue().create(messages);
                CpuShare start = CpuShare.now();
                Histogram h = round.run();
                CpuShare end = CpuShare.now();
                double after = PlacementProbe.measure(ROUND_PROBE_ROUND_TRIPS).medianNanos();
                double foreign = end.foreignPercentSince(start);
                double steal = end.stealPercentSince(start);
                double[] values = new double[PERCENTILES.length];
                for (int p = 0; p < PERCENTILES.length; p++) {
                    values[p] = h.getValueAtPercentile(PERCENTILES[p]);
                }
                RoundResult result = new RoundResult(values, before, after, foreign);
                results.get(transport.getKey()).add(result);
                System.out.printf(Locale.ROOT, "round %d   %-9s %s  placement %.0f/%.0f ns (%s), foreign %.0f%%, steal %.0f%%%s%n",
                        r + 1, transport.getKey(), describe(h, round.lateSends), before, after,
                        PlacementProbe.classify(Math.max(before, after)), foreign, steal,
                        result.undisturbed() ? "" : " DISTURBED");
            }
        }
        System.out.println("placement after latency: " + PlacementProbe.measure(1_000_000));

        for (Selection selection : Selection.values()) {
            summarize(results, selection);
        }
        System.out.println("(a ratio below 1.00 means ours is faster)");
    }

    /**
     * One measured round: its percentiles, and the placement probes (median round trip, ns) just
     * before and after it.
     */
    record RoundResult(double[] percentiles, double placementBefore, double placementAfter, double foreignCpuPercent) {
        boolean close() {
            return placementBefore < PlacementProbe.CLOSE_BELOW_NANOS && placementAfter < PlacementProbe.CLOSE_BELOW_NANOS;
        }

        boolean far() {
            return placementBefore >= PlacementProbe.FAR_FROM_NANOS && placementAfter >= PlacementProbe.FAR_FROM_NANOS;
        }

        boolean undisturbed() {
            return !(foreignCpuPercent >= CpuShare.DISTURBED_FROM_PERCENT);
        }
    }

    /** Which rounds a summary counts. */
    enum Selection {
        ALL("all rounds"),
        CLOSE("close-placement undisturbed rounds (both probes < " + (int) PlacementProbe.CLOSE_BELOW_NANOS
                + " ns, other processes < " + (int) CpuShare.DISTURBED_FROM_PERCENT + "% of a CPU)"),
        FAR("far-placement undisturbed rounds (both probes >= " + (int) PlacementProbe.FAR_FROM_NANOS + " ns)");

        final String label;

        Selection(String label) {
            this.label = label;
        }

        boolean accepts(RoundResult r) {
            return switch (this) {
                case ALL -> true;
                case CLOSE -> r.close() && r.undisturbed();
                case FAR -> r.far() && r.undisturbed();
            };
        }
    }

    static void summarize(Map<String, List<RoundResult>> results, Selection selection) {
        System.out.println();
        System.out.println("one-way latency, ns, median across the " + selection.label);
        System.out.printf(Locale.ROOT, "%-22s", "transport");
        for (String name : PERCENTILE_NAMES) {
            System.out.printf(Locale.ROOT, "%10s", name);
        }
        System.out.printf(Locale.ROOT, "%10s%n", "rounds");
        Map<String, double[]> medians = new LinkedHashMap<>();
        for (Map.Entry<String, List<RoundResult>> entry : results.entrySet()) {
            List<RoundResult> rounds = entry.getValue().stream().filter(selection::accepts).toList();
            double[] median = new double[PERCENTILES.length];
            for (int p = 0; p < PERCENTILES.length; p++) {
                final int index = p;
                median[p] = rounds.isEmpty() ? Double.NaN
                        : Stats.median(rounds.stream().mapToDouble(r -> r.percentiles()[index]).toArray());
            }
            medians.put(entry.getKey(), median);
            printRow(entry.getKey(), median, "%10.0f", rounds.size() + "/" + entry.getValue().size());
        }
        for (String peer : List.of("agrona", "disruptor")) {
            double[] ratio = new double[PERCENTILES.length];
            for (int p = 0; p < PERCENTILES.length; p++) {
                ratio[p] = medians.get("ours")[p] / medians.get(peer)[p];
            }
            printRow("ratio ours/" + peer, ratio, "%10.2f", "");
        }
    }

    private static void printRow(String label, double[] values, String format, String last) {
        System.out.printf(Locale.ROOT, "%-22s", label);
        for (double value : values) {
            System.out.printf(Locale.ROOT, format, value);
        }
        System.out.printf(Locale.ROOT, "%10s%n", last);
    }

    private static String describe(Histogram h, long lateSends) {
        return String.format(Locale.ROOT, "p50 %6d  p90 %6d  p99 %7d  p99.9 %8d  max %9d ns  (n=%d, late sends %d)",
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue(), h.getTotalCount(), lateSends);
    }

    private static Map<String, Integer> parse(String[] args, Map<String, Integer> defaults) {
        Map<String, Integer> options = new LinkedHashMap<>(defaults);
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? "" : arg.substring(0, eq);
            if (!defaults.containsKey(key)) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'; expected key=value with key in " + defaults.keySet());
            }
            options.put(key, Integer.parseInt(arg.substring(eq + 1)));
        }
        return options;
    }
}
