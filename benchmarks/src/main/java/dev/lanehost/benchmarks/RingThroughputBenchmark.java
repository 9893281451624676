package dev.lanehost.benchmarks;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.testhost.TestHost.ForeignThread;
import dev.lanehost.testhost.TestHost.Role;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.BufferUtil;
import org.jctools.queues.SpscArrayQueue;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of one producer and one consumer moving bytes through a 1 MiB ring, for every transport
 * the ring must be compared with, in one JMH run.
 *
 * <p>One operation is one byte: each benchmark call moves exactly {@link #BATCH} bytes in transfers of
 * {@code chunk} bytes and is declared as {@code BATCH} operations, so JMH's score in ops/us is
 * bytes/us, that is MB/s (10^6 bytes per second); the figures in {@code benchmarks/HISTORY.md} are GB/s (divided by 1000).
 *
 * <p>The JMH thread is one side; the other side is free-running for the whole trial (started in
 * {@code @Setup(Level.Trial)}, stopped in {@code @TearDown}): a Java thread, or a C pthread of the test
 * host that never enters the JVM. The {@code transport} parameter:
 * <ol>
 *   <li>{@code javaToJava}: Java producer thread, JMH thread reads ({@link SpscByteRing}).</li>
 *   <li>{@code cToC}: C producer pthread, and the JMH thread runs the C consumer loop
 *       ({@link TestHost#transfer}): the native floor.</li>
 *   <li>{@code agrona}: Agrona's {@link OneToOneRingBuffer}, {@code chunk}-byte messages, Java
 *       producer thread, JMH thread reads.</li>
 *   <li>{@code disruptor}: an LMAX Disruptor {@link RingBuffer} of {@code 1 MiB / chunk} events each
 *       holding a {@code byte[chunk]}, Java producer thread, JMH thread polls an {@link EventPoller}.</li>
 *   <li>{@code jctools}: JCTools' {@link SpscArrayQueue} of {@code byte[chunk]} buffers from a pool (a
 *       second {@code SpscArrayQueue} returns them), Java producer thread, JMH thread polls.</li>
 *   <li>{@code cToJava}: C producer pthread, JMH thread reads ({@link SpscByteRing}).</li>
 *   <li>{@code javaToC}: JMH thread writes, C consumer pthread ({@link SpscByteRing}).</li>
 *   <li>{@code segmentToC}: as {@code javaToC}, but the JMH thread writes from native memory (a shared
 *       arena's segment: a host's buffer), not a {@code byte[]}.</li>
 *   <li>{@code cToCWriter}: the native floor with {@code javaToC}'s roles: the JMH thread runs the C producer loop,
 *       a C consumer pthread reads ({@code cToC} is the floor with {@code cToJava}'s roles).</li>
 * </ol>
 * One parameter rather than one method per transport because JMH varies the last parameter fastest:
 * all nine transports at one size run back to back (about a minute), so the ratios at a size compare
 * runs close in time on this VM, whose core placement drifts.
 *
 * <p>Equal work: every producer copies from a pre-filled source buffer and every consumer copies into
 * a destination buffer. Byte-stream consumers ask for {@code min(chunk, bytes left)} per read and
 * accept partial reads, exactly as the C consumer loop does; the byte-stream producers likewise.
 *
 * <p>Nothing here hangs: free-running producers re-check their volatile stop flag whenever the ring
 * is full and after every chunk or message; the JMH thread gives up with an exception when its peer
 * died or made no progress for {@link #STALL_LIMIT_NANOS}.
 *
 * <p>Placement: the host moves this VM's two vCPUs closer and further apart while it runs, and every
 * score here moves with it (up to 5x). So a short {@link PlacementProbe} runs before and after every
 * iteration, outside the measured time and with the peer paused, and is reported as the secondary
 * results {@code placementBeforeNs} and {@code placementAfterNs} (one value per iteration in the JSON's
 * rawData; JMH's aggregate of them is a meaningless sum). A longer probe before and after each trial
 * goes to the log ({@code # placement before/after ...}). {@link ThroughputSummary} reads both.
 * Likewise {@code foreignCpuPercent} and {@code stealPercent} say how much CPU other processes and the
 * hypervisor took during each iteration, because the machine is shared.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// The defaults are those of benchmarks/run-ring.sh: many short iterations, each tagged with its placement.
// A -jvmArgsAppend on the JMH command line replaces the fork options below instead of adding to them: repeat them
// there (without --add-exports Agrona's transport fails; without native access the ring loses its memcpy path).
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 16, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {
        "--enable-native-access=ALL-UNNAMED",
        // Agrona 2.x reaches jdk.internal.misc.Unsafe on JDK 25.
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "-Xms512m", "-Xmx512m"})
public class RingThroughputBenchmark {
    /** Every transport gets the same 1 MiB of ring. */
    static final int CAPACITY = 1 << 20;

    /**
     * Bytes per benchmark call: one ring's worth, so each call spans at least one wrap and takes long
     * enough (a hundred microseconds or more) that JMH's per-call overhead is noise.
     */
    static final int BATCH = 1 << 20;

    /**
     * Long enough that a peer descheduled by the other tenant of the VM is not mistaken for a dead
     * one, short enough that a dead one fails the run instead of stalling it for good.
     */
    static final long STALL_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(20);

    /** Idle spins between two looks at the clock while waiting: cheap, and still many per second. */
    private static final int STALL_CHECK_MASK = (1 << 16) - 1;

    /** Round trips of the placement probe beside each trial: 5-50 ms, small next to a trial. */
    private static final int TRIAL_PROBE_ROUND_TRIPS = 100_000;

    /** Round trips of the probe around each iteration: 1-10 ms, while the peer is paused. */
    private static final int ITERATION_PROBE_ROUND_TRIPS = 20_000;

    /** How long a paused Java peer sleeps between looks at its pause flag: brief, off the measured time. */
    private static final long PARK_NANOS = 100_000;

    private static final long SEED = 0x5EED_B1A5L;

    /** The parameters, the transport and its free-running peer, for one trial. */
    @State(Scope.Benchmark)
    public static class Ring {
        @Param({"512", "4096", "65536"})
        public int chunk;

        @Param({"javaToJava", "cToC", "agrona", "disruptor", "jctools", "cToJava", "javaToC", "segmentToC", "cToCWriter"})
        public String transport;

        /**
         * How many {@code Thread.onSpinWait()} the JMH thread's side makes each time it finds nothing to do (a consumer
         * an empty ring, a producer a full one): 1, a busy spin, by default. A side that looks again at once keeps
         * fetching the line its peer writes next; {@code 128} (about 2.7 µs on the machine of RESULTS.md) lets bytes
         * gather between looks. One value per run: {@link ThroughputSummary} does not tell them apart.
         */
        @Param({"1"})
        public int idlePauses;

        Transport moving;

        @Setup(Level.Trial)
        public void setUp() {
            if (idlePauses < 1) {
                throw new IllegalArgumentException("idlePauses must be at least 1 (1 is a busy spin), was " + idlePauses);
            }
            System.out.println(System.lineSeparator() + "# placement before " + transport + " chunk=" + chunk + ": "
                    + PlacementProbe.measure(TRIAL_PROBE_ROUND_TRIPS));
            moving = switch (transport) {
                case "javaToJava" -> new JavaToJava(chunk);
                case "cToC" -> new CToC(chunk);
                case "agrona" -> new Agrona(chunk);
                case "disruptor" -> new Disruptor(chunk);
                case "jctools" -> new JcTools(chunk);
                case "cToJava" -> new CToJava(chunk);
                case "javaToC" -> new JavaToC(chunk);
                case "segmentToC" -> new SegmentToC(chunk);
                case "cToCWriter" -> new CToCWriter(chunk);
                default -> throw new IllegalArgumentException("unknown transport " + transport);
            };
            moving.idlePauses = idlePauses;
            moving.start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            moving.stop();
            System.out.println(System.lineSeparator() + "# placement after " + transport + " chunk=" + chunk + ": "
                    + PlacementProbe.measure(TRIAL_PROBE_ROUND_TRIPS));
        }

        /** A short placement probe with the peer paused, so that the probe has both vCPUs. */
        double probeWithPeerPaused() throws InterruptedException {
            moving.pause();
            try {
                return PlacementProbe.measure(ITERATION_PROBE_ROUND_TRIPS).medianNanos();
            } finally {
                moving.resume();
            }
        }
    }

    /**
     * The placement just before and just after each iteration, as JMH secondary results
     * ({@code transfer:placementBeforeNs}, {@code transfer:placementAfterNs}, one value per iteration
     * in the JSON's rawData), so that each iteration's score can be read beside the placement it ran
     * on. The probes run outside the measured time, with the peer paused.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Placement {
        public double placementBeforeNs;
        public double placementAfterNs;
        /** Percent of one CPU that other processes used during the iteration (see {@link CpuShare}). */
        public double foreignCpuPercent;
        /** Percent of one CPU that the hypervisor stole during the iteration. */
        public double stealPercent;

        // JMH zeroes the counters after the iteration setup, so what setup measures waits here.
        private double before;
        private CpuShare start;

        @Setup(Level.Iteration)
        public void before(Ring ring) throws InterruptedException {
            before = ring.probeWithPeerPaused();
            start = CpuShare.now();
        }

        @TearDown(Level.Iteration)
        public void after(Ring ring) throws InterruptedException {
            CpuShare end = CpuShare.now();
            foreignCpuPercent = end.foreignPercentSince(start);
            stealPercent = end.stealPercentSince(start);
            placementBeforeNs = before;
            placementAfterNs = ring.probeWithPeerPaused();
        }
    }

    /**
     * Moves {@link #BATCH} bytes to or from the free-running peer. A fork runs one transport only, so
     * this call site stays monomorphic; it is made once per mebibyte. ({@code placement} is unused
     * here: naming it is what makes JMH run its probes and report them beside this score.)
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int transfer(Ring ring, Placement placement) throws Exception {
        return ring.moving.moveBatch();
    }

    // --------------------------------------------------------------------------------- transports

    /** One transport: its ring, its free-running peer, and the JMH thread's side of a batch. */
    abstract static class Transport {
        final int chunk;
        /** What the producer copies from. */
        final byte[] source;
        /** What the consumer copies into. */
        final byte[] destination;

        /** Set by a Java peer that died, so the JMH thread fails instead of waiting forever. */
        volatile Throwable peerFailure;

        private long stallStart;
        /** {@link Ring#idlePauses}: set before {@link #start()}. */
        int idlePauses = 1;

        Transport(int chunk) {
            this.chunk = chunk;
            source = new byte[chunk];
            for (int i = 0; i < chunk; i++) {
                source[i] = TestHost.patternByte(i, SEED);
            }
            destination = new byte[chunk];
        }

        /** Creates the ring and starts the free-running peer. */
        abstract void start();

        /** The JMH thread's side: moves exactly {@link #BATCH} bytes; returns something to consume. */
        abstract int moveBatch() throws Exception;

        /** Stops and joins the peer and frees the ring. Returns even if the JMH thread stopped mid-batch. */
        abstract void stop() throws InterruptedException;

        /**
         * Between iterations: makes the peer give up its CPU (a Java peer parks, a C peer is stopped and
         * joined) so that a placement probe can have both vCPUs. The JMH thread is not moving bytes, so
         * a producer peer soon finds the ring full and a consumer peer finds it empty.
         */
        abstract void pause() throws InterruptedException;

        /** Undoes {@link #pause()}: the peer carries on with the same ring. */
        abstract void resume();

        /**
         * One idle spin of the JMH thread while its peer has nothing for it ({@link #idlePauses} pauses); {@code spins}
         * counts this wait's idle spins so far (from 0). Every 65536 spins it checks that the peer is alive and has
         * not been silent for {@link #STALL_LIMIT_NANOS}. Returns {@code spins + 1}.
         */
        final int idle(int spins) {
            for (int i = idlePauses; i > 0; i--) {
                Thread.onSpinWait();
            }
            if ((spins & STALL_CHECK_MASK) == STALL_CHECK_MASK) {
                checkPeer(spins == STALL_CHECK_MASK);
            }
            return spins + 1;
        }

        private void checkPeer(boolean firstCheckOfThisWait) {
            Throwable failure = peerFailure;
            if (failure != null) {
                throw new IllegalStateException(getClass().getSimpleName() + ": the peer thread failed", failure);
            }
            long now = System.nanoTime();
            if (firstCheckOfThisWait) {
                stallStart = now;
            } else if (now - stallStart > STALL_LIMIT_NANOS) {
                throw new IllegalStateException(getClass().getSimpleName() + ": no progress from the peer for "
                        + TimeUnit.NANOSECONDS.toSeconds(STALL_LIMIT_NANOS) + " s");
            }
        }

        // A Java peer's pause handshake. The peer checks `paused` only when the ring is full, the one
        // place it must reach once the JMH thread stops consuming, so the hot path carries no extra load.
        private volatile boolean paused;
        private volatile boolean parked;
        /** Set before a Java peer is stopped, so that a paused peer cannot sleep through its stop. */
        volatile boolean stopping;

        /** Called by a Java producer peer on its ring-full path: parks while the JMH thread probes. */
        final void parkIfPaused() {
            if (paused) {
                parked = true;
                while (paused && !stopping) {
                    LockSupport.parkNanos(PARK_NANOS);
                }
                parked = false;
            }
        }

        final void pauseJavaPeer(Thread peer) throws InterruptedException {
            paused = true;
            long deadline = System.nanoTime() + STALL_LIMIT_NANOS;
            while (!parked) {
                if (!peer.isAlive() || System.nanoTime() > deadline) {
                    paused = false;
                    throw new IllegalStateException(peer.getName() + " did not pause", peerFailure);
                }
                Thread.sleep(0, 100_000);
            }
        }

        final void resumeJavaPeer() {
            paused = false;
        }

        /** Starts a free-running Java peer thread that reports its death through {@link #peerFailure}. */
        final Thread startJavaPeer(String name, Runnable loop) {
            Thread thread = new Thread(loop, name);
            thread.setDaemon(true); // a stuck peer must never keep the fork alive
            thread.setUncaughtExceptionHandler((t, e) -> peerFailure = e);
            thread.start();
            return thread;
        }

        final void joinJavaPeer(Thread thread) throws InterruptedException {
            stopping = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within 30 s");
            }
        }

        static void checkForeignResult(String what, TestHost.Result result) {
            if (result.status() != 0) {
                throw new IllegalStateException(what + " ended with ring status " + result.status());
            }
        }

        /** The JMH thread reads exactly {@link #BATCH} bytes in reads of at most {@code chunk}. */
        final int readBatch(SpscByteRing ring) {
            byte[] destination = this.destination;
            int chunk = this.chunk;
            int left = BATCH;
            int spins = 0;
            int n = 0;
            while (left > 0) {
                n = ring.read(destination, 0, Math.min(chunk, left));
                if (n == 0) {
                    spins = idle(spins);
                } else {
                    spins = 0;
                    left -= n;
                }
            }
            return destination[n - 1];
        }
    }

    /**
     * A transport whose peer is a free-running Java producer thread: its start, pause, resume and stop, written once.
     * A subclass opens its ring in {@link #open()} and writes in {@link #produce()} while {@link #running}.
     */
    abstract static class JavaProducerTransport extends Transport {
        private final String peerName;
        volatile boolean running;
        private Thread producer;

        JavaProducerTransport(int chunk, String peerName) {
            super(chunk);
            this.peerName = peerName;
        }

        /** Creates what the producer writes to, before the producer starts. */
        abstract void open();

        /** The producer thread's loop: returns once {@link #running} is false. */
        abstract void produce();

        /** After the producer has stopped: frees what {@link #open()} made (nothing unless overridden). */
        void close() {
        }

        @Override
        final void start() {
            open();
            running = true;
            producer = startJavaPeer(peerName + "-producer", this::produce);
        }

        @Override
        final void pause() throws InterruptedException {
            pauseJavaPeer(producer);
        }

        @Override
        final void resume() {
            resumeJavaPeer();
        }

        @Override
        final void stop() throws InterruptedException {
            running = false;
            joinJavaPeer(producer);
            close();
        }
    }

    /** {@link SpscByteRing}: a free-running Java producer thread; the JMH thread reads. */
    static final class JavaToJava extends JavaProducerTransport {
        private SpscByteRing ring;

        JavaToJava(int chunk) {
            super(chunk, "javaToJava");
        }

        @Override
        void open() {
            ring = SpscByteRing.allocate(CAPACITY);
        }

        @Override
        void produce() {
            SpscByteRing ring = this.ring;
            byte[] source = this.source;
            int chunk = this.chunk;
            while (running) {
                int done = 0;
                while (done < chunk) {
                    int n = ring.write(source, done, chunk - done);
                    if (n == 0) {
                        if (!running) {
                            return;
                        }
                        parkIfPaused();
                        Thread.onSpinWait();
                    }
                    done += n;
                }
            }
        }

        @Override
        int moveBatch() {
            return readBatch(ring);
        }

        @Override
        void close() {
            ring.close();
        }
    }

    /** {@link SpscByteRing}: a free-running C producer pthread; the JMH thread reads. */
    static class CToJava extends Transport {
        SpscByteRing ring;
        private ForeignThread producer;

        CToJava(int chunk) {
            super(chunk);
        }

        @Override
        final void start() {
            ring = SpscByteRing.allocate(CAPACITY);
            resume();
        }

        @Override
        final void pause() {
            producer.stop();
            checkForeignResult("the C producer", producer.join());
        }

        @Override
        final void resume() {
            producer = TestHost.start(Role.PRODUCER, ring, 0, SEED, chunk, 0);
        }

        @Override
        int moveBatch() {
            return readBatch(ring);
        }

        @Override
        final void stop() {
            pause();
            ring.close();
        }
    }

    /**
     * {@link SpscByteRing}: a free-running C producer pthread; the JMH thread runs the C consumer loop
     * (one downcall per batch, which wraps the ring and callocs a chunk buffer: well under 1% of a
     * mebibyte's copy).
     */
    static final class CToC extends CToJava {
        CToC(int chunk) {
            super(chunk);
        }

        @Override
        int moveBatch() {
            return (int) TestHost.transfer(Role.CONSUMER, ring, BATCH, chunk);
        }
    }

    /** {@link SpscByteRing}: the JMH thread writes; a free-running C consumer pthread reads. */
    static class JavaToC extends Transport {
        private SpscByteRing ring;
        private ForeignThread consumer;

        JavaToC(int chunk) {
            super(chunk);
        }

        @Override
        void start() {
            ring = SpscByteRing.allocate(CAPACITY);
            resume();
        }

        @Override
        void pause() {
            consumer.stop();
            checkForeignResult("the C consumer", consumer.join());
        }

        @Override
        void resume() {
            consumer = TestHost.start(Role.CONSUMER, ring, 0, SEED, chunk, 0);
        }

        @Override
        int moveBatch() {
            SpscByteRing ring = this.ring;
            byte[] source = this.source;
            int chunk = this.chunk;
            int left = BATCH;
            int spins = 0;
            while (left > 0) {
                int n = ring.write(source, 0, Math.min(chunk, left));
                if (n == 0) {
                    spins = idle(spins);
                } else {
                    spins = 0;
                    left -= n;
                }
            }
            return left;
        }

        @Override
        void stop() {
            pause();
            ring.close();
        }

        final SpscByteRing ring() {
            return ring;
        }
    }

    /**
     * The C floor with {@link JavaToC}'s roles: the JMH thread runs the C producer loop (one downcall per batch), a
     * free-running C consumer pthread reads. {@link CToC} has the roles of {@link CToJava} (the JMH thread reads). In
     * close placement the swap moved 4 KiB 5 % slower in one probe and 5 % faster in this benchmark, so
     * {@link ThroughputSummary} compares a Java writer with both floors.
     */
    static final class CToCWriter extends JavaToC {
        CToCWriter(int chunk) {
            super(chunk);
        }

        @Override
        int moveBatch() {
            return (int) TestHost.transfer(Role.PRODUCER, ring(), BATCH, chunk);
        }
    }

    /** {@link JavaToC} writing from a native segment in a shared arena (each write holds the arena, as any copy does). */
    static final class SegmentToC extends JavaToC {
        private Arena arena;
        private MemorySegment nativeSource;

        SegmentToC(int chunk) {
            super(chunk);
        }

        @Override
        void start() {
            arena = Arena.ofShared();
            nativeSource = arena.allocate(chunk, 64).copyFrom(MemorySegment.ofArray(source));
            super.start();
        }

        @Override
        int moveBatch() {
            SpscByteRing ring = ring();
            MemorySegment source = nativeSource;
            int chunk = this.chunk;
            long left = BATCH;
            int spins = 0;
            while (left > 0) {
                long n = ring.write(source, 0, Math.min(chunk, left));
                if (n == 0) {
                    spins = idle(spins);
                } else {
                    spins = 0;
                    left -= n;
                }
            }
            return (int) left;
        }

        @Override
        void stop() {
            super.stop();
            arena.close();
        }
    }

    /**
     * Agrona's one-to-one ring over 1 MiB (+ trailer) of direct memory aligned to two cache lines like
     * ours (Agrona's documentation asks for alignment too); {@code chunk}-byte messages of type 1 from a
     * free-running Java producer; the JMH thread reads them with {@code read(handler, limit)}.
     */
    static final class Agrona extends JavaProducerTransport implements MessageHandler {
        private OneToOneRingBuffer ring;
        /** Written by the handler, returned by the batch: the last byte of the last message. */
        private byte last;

        Agrona(int chunk) {
            super(chunk, "agrona");
        }

        @Override
        void open() {
            // The direct memory is freed by the GC with the ring.
            ring = new OneToOneRingBuffer(new UnsafeBuffer(
                    BufferUtil.allocateDirectAligned(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 128)));
        }

        @Override
        void produce() {
            OneToOneRingBuffer ring = this.ring;
            UnsafeBuffer source = new UnsafeBuffer(this.source);
            int chunk = this.chunk;
            while (running) {
                while (!ring.write(1, source, 0, chunk)) {
                    if (!running) {
                        return;
                    }
                    parkIfPaused();
                    Thread.onSpinWait();
                }
            }
        }

        @Override
        int moveBatch() {
            OneToOneRingBuffer ring = this.ring;
            int messagesLeft = BATCH / chunk;
            int spins = 0;
            while (messagesLeft > 0) {
                int n = ring.read(this, messagesLeft);
                if (n == 0) {
                    spins = idle(spins);
                } else {
                    spins = 0;
                    messagesLeft -= n;
                }
            }
            return last;
        }

        @Override
        public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            buffer.getBytes(index, destination, 0, length);
            last = destination[length - 1];
        }
    }

    /**
     * JCTools' {@link SpscArrayQueue}, the closest like-for-like JCTools offers: jctools-core has no byte
     * ring (its off-heap byte rings stayed in the experimental module, never released), only queues of
     * references. So bytes travel as {@code byte[chunk]} buffers that never change hands for good: the
     * producer takes a free buffer from a pool, copies the chunk in and offers it; the JMH thread polls it,
     * copies the chunk out and returns the buffer to the pool, a second {@code SpscArrayQueue} going the
     * other way. {@code 1 MiB / chunk} buffers, allocated once, so nothing allocates on the hot path and the
     * bytes in flight are the same 1 MiB as every other transport's. Both sides use the relaxed calls
     * ({@code relaxedPoll}/{@code relaxedOffer}), JCTools' fastest for a spinning peer.
     */
    static final class JcTools extends JavaProducerTransport {
        private SpscArrayQueue<byte[]> full;
        private SpscArrayQueue<byte[]> free;
        private byte last;

        JcTools(int chunk) {
            super(chunk, "jctools");
        }

        @Override
        void open() {
            int buffers = CAPACITY / chunk;
            full = new SpscArrayQueue<>(buffers);
            free = new SpscArrayQueue<>(buffers);
            for (int i = 0; i < buffers; i++) {
                free.relaxedOffer(new byte[chunk]);
            }
        }

        @Override
        void produce() {
            SpscArrayQueue<byte[]> full = this.full;
            SpscArrayQueue<byte[]> free = this.free;
            byte[] source = this.source;
            int chunk = this.chunk;
            while (running) {
                byte[] buffer;
                while ((buffer = free.relaxedPoll()) == null) {
                    if (!running) {
                        return;
                    }
                    parkIfPaused();
                    Thread.onSpinWait();
                }
                System.arraycopy(source, 0, buffer, 0, chunk);
                full.relaxedOffer(buffer); // never full: there are only as many buffers as slots
            }
        }

        @Override
        int moveBatch() {
            SpscArrayQueue<byte[]> full = this.full;
            SpscArrayQueue<byte[]> free = this.free;
            byte[] destination = this.destination;
            int chunk = this.chunk;
            int buffersLeft = BATCH / chunk;
            int spins = 0;
            while (buffersLeft > 0) {
                byte[] buffer = full.relaxedPoll();
                if (buffer == null) {
                    spins = idle(spins);
                } else {
                    spins = 0;
                    System.arraycopy(buffer, 0, destination, 0, chunk);
                    free.relaxedOffer(buffer);
                    buffersLeft--;
                }
            }
            last = destination[chunk - 1];
            return last;
        }
    }

    /**
     * An LMAX Disruptor ring (single producer) of {@code 1 MiB / chunk} events each holding a
     * {@code byte[chunk]}; a free-running Java producer copies into claimed events; the JMH thread
     * polls an {@link EventPoller} gating the ring and copies each event out.
     */
    static final class Disruptor extends JavaProducerTransport implements EventPoller.Handler<Disruptor.Slot> {
        /** One event: a chunk's worth of bytes, allocated once when the ring is built. */
        static final class Slot {
            final byte[] bytes;

            Slot(int length) {
                bytes = new byte[length];
            }
        }

        private RingBuffer<Slot> ring;
        private EventPoller<Slot> poller;
        /** Events the current batch still has to take; the handler ends the poll at zero. */
        private int eventsLeft;
        private byte last;

        Disruptor(int chunk) {
            super(chunk, "disruptor");
        }

        @Override
        void open() {
            int chunk = this.chunk;
            // The wait strategy is never used: nobody blocks on the sequencer, the consumer polls.
            ring = RingBuffer.createSingleProducer(() -> new Slot(chunk), CAPACITY / chunk, new YieldingWaitStrategy());
            poller = ring.newPoller();
            ring.addGatingSequences(poller.getSequence());
        }

        @Override
        void produce() {
            RingBuffer<Slot> ring = this.ring;
            byte[] source = this.source;
            int chunk = this.chunk;
            while (running) {
                // next() parks (LockSupport.parkNanos) while the ring is full and would never see the
                // stop flag: wait for room first, after which a single producer's next() returns at once.
                while (!ring.hasAvailableCapacity(1)) {
                    if (!running) {
                        return;
                    }
                    parkIfPaused();
                    Thread.onSpinWait();
                }
                long sequence = ring.next();
                System.arraycopy(source, 0, ring.get(sequence).bytes, 0, chunk);
                ring.publish(sequence);
            }
        }

        @Override
        int moveBatch() throws Exception {
            EventPoller<Slot> poller = this.poller;
            eventsLeft = BATCH / chunk;
            int spins = 0;
            while (eventsLeft > 0) {
                if (poller.poll(this) == EventPoller.PollState.PROCESSING) {
                    spins = 0;
                } else {
                    spins = idle(spins);
                }
            }
            return last;
        }

        @Override
        public boolean onEvent(Slot event, long sequence, boolean endOfBatch) {
            System.arraycopy(event.bytes, 0, destination, 0, chunk);
            last = destination[chunk - 1];
            return --eventsLeft > 0;
        }
    }
}
