package dev.lanehost.benchmarks;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import java.util.concurrent.TimeUnit;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jctools.queues.SpscArrayQueue;
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
 * What one transfer costs a transport apart from moving cache lines between cores: one thread writes one
 * {@code chunk} and reads it back, so every line is in its own cache and the figure is the fixed cost of
 * the calls (checks, claims, publication, the copies' set-up) plus two cache-hot copies.
 *
 * <p>{@link RingThroughputBenchmark} measures the two-thread figure, which the host's placement of the two
 * vCPUs moves up to 5×; this one does not depend on placement, so a change to the ring's code shows here
 * in a single run. When the two vCPUs sit close (a round trip of ~60 ns) the throughput at 512 B is bounded
 * by this fixed cost rather than by the cache-line transfers.
 *
 * <p>Every transport holds the same 64 KiB (it fits the core's L2, so no copy waits on memory) and does the
 * same work as in {@link RingThroughputBenchmark}: {@code arraycopy} is the Java floor (two {@code System.arraycopy}
 * calls into and out of a {@code byte[]} ring, no publication at all), and {@code cFloor} the same ring's write and
 * read in C ({@link TestHost#echo}, {@value #C_PAIRS} pairs a downcall, so the downcall's cost is spread thin).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {
        "--enable-native-access=ALL-UNNAMED",
        // Agrona 2.x reaches jdk.internal.misc.Unsafe on JDK 25.
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
public class RingOverheadBenchmark {
    static final int CAPACITY = 1 << 16;
    static final int C_PAIRS = 1000;

    @Param({"64", "512", "4096"})
    public int chunk;

    private byte[] source;
    private byte[] destination;

    private byte[] heapRing;
    private int heapPosition;

    private SpscByteRing ring;
    private SpscByteRing cRing;

    private OneToOneRingBuffer agrona;
    private UnsafeBuffer agronaSource;
    private final MessageHandler agronaHandler = this::onAgronaMessage;

    private RingBuffer<byte[]> disruptor;
    private EventPoller<byte[]> poller;
    private final EventPoller.Handler<byte[]> disruptorHandler = this::onDisruptorEvent;

    private SpscArrayQueue<byte[]> full;
    private SpscArrayQueue<byte[]> free;

    @Setup(Level.Trial)
    public void setUp() {
        source = new byte[chunk];
        for (int i = 0; i < chunk; i++) {
            source[i] = (byte) i;
        }
        destination = new byte[chunk];
        heapRing = new byte[CAPACITY];
        ring = SpscByteRing.allocate(CAPACITY);
        cRing = SpscByteRing.allocate(CAPACITY);
        agrona = new OneToOneRingBuffer(new UnsafeBuffer(
                BufferUtil.allocateDirectAligned(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 128)));
        agronaSource = new UnsafeBuffer(source);
        int chunk = this.chunk;
        disruptor = RingBuffer.createSingleProducer(() -> new byte[chunk], CAPACITY / chunk, new YieldingWaitStrategy());
        poller = disruptor.newPoller();
        disruptor.addGatingSequences(poller.getSequence());
        int buffers = CAPACITY / chunk;
        full = new SpscArrayQueue<>(buffers);
        free = new SpscArrayQueue<>(buffers);
        for (int i = 0; i < buffers; i++) {
            free.relaxedOffer(new byte[chunk]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ring.close();
        cRing.close();
    }

    @Benchmark
    public byte arraycopy() {
        int position = heapPosition;
        System.arraycopy(source, 0, heapRing, position, chunk);
        System.arraycopy(heapRing, position, destination, 0, chunk);
        heapPosition = (position + chunk) & (CAPACITY - 1);
        return destination[chunk - 1];
    }

    @Benchmark
    public byte lanehost() {
        int chunk = this.chunk;
        if (ring.write(source, 0, chunk) != chunk || ring.read(destination, 0, chunk) != chunk) {
            throw new IllegalStateException("the ring moved less than a chunk");
        }
        return destination[chunk - 1];
    }

    @Benchmark
    @OperationsPerInvocation(C_PAIRS)
    public long cFloor() {
        return TestHost.echo(cRing, C_PAIRS, chunk);
    }

    @Benchmark
    public byte agrona() {
        // A read that meets the padding record at the end of the buffer skips it and returns 0: read again.
        if (!agrona.write(1, agronaSource, 0, chunk)
                || agrona.read(agronaHandler, 1) != 1 && agrona.read(agronaHandler, 1) != 1) {
            throw new IllegalStateException("Agrona's ring moved no message");
        }
        return destination[chunk - 1];
    }

    @Benchmark
    public byte disruptor() throws Exception {
        long sequence = disruptor.next();
        System.arraycopy(source, 0, disruptor.get(sequence), 0, chunk);
        disruptor.publish(sequence);
        if (poller.poll(disruptorHandler) != EventPoller.PollState.PROCESSING) {
            throw new IllegalStateException("the Disruptor's poller found no event");
        }
        return destination[chunk - 1];
    }

    @Benchmark
    public byte jctools() {
        byte[] buffer = free.relaxedPoll();
        System.arraycopy(source, 0, buffer, 0, chunk);
        full.relaxedOffer(buffer);
        byte[] received = full.relaxedPoll();
        System.arraycopy(received, 0, destination, 0, chunk);
        free.relaxedOffer(received);
        return destination[chunk - 1];
    }

    private void onAgronaMessage(int type, MutableDirectBuffer buffer, int index, int length) {
        buffer.getBytes(index, destination, 0, length);
    }

    private boolean onDisruptorEvent(byte[] event, long sequence, boolean endOfBatch) {
        System.arraycopy(event, 0, destination, 0, chunk);
        return false;
    }
}
