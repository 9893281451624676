package dev.lanehost.benchmarks;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import dev.lanehost.lanes.queue.MpscNode;
import dev.lanehost.lanes.queue.MpscQueue;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.jctools.queues.MpscLinkedQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a self-send's queue work costs on one thread: a freshly allocated letter offered to a long-lived MPSC queue and
 * taken out again, for the mailbox's queue and for the peers' unbounded MPSC queues. Run it twice, in JVMs whose
 * collector keeps the queue young ({@code -Xmn600m -XX:MaxTenuringThreshold=15}) and old
 * ({@code -XX:MaxTenuringThreshold=0}): the difference is what G1's write barrier costs each queue once the queue is
 * in the old generation and every offer stores a young letter into it (and, for a linked queue, every take too).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
public class QueueBarrierBenchmark {
    /** A letter: one object per send, as a message's letter is. */
    static final class Letter extends MpscNode {
        long payload;
    }

    private MpscChunkQueue<Letter> mailbox;
    private MpscQueue<Letter> linked;
    private Queue<Letter> jctoolsLinked;
    private Queue<Letter> jctoolsChunked;
    private Queue<Letter> jctoolsXadd;
    private Queue<Letter> agronaLinked;
    private long sent;

    @Setup(Level.Trial)
    public void setUp() {
        mailbox = new MpscChunkQueue<>();
        linked = new MpscQueue<>();
        jctoolsLinked = new MpscLinkedQueue<>();
        jctoolsChunked = new MpscUnboundedArrayQueue<>(64);
        jctoolsXadd = new MpscUnboundedXaddArrayQueue<>(64);
        agronaLinked = new ManyToOneConcurrentLinkedQueue<>();
    }

    private Letter letter() {
        Letter letter = new Letter();
        letter.payload = ++sent;
        return letter;
    }

    /** The mailbox's queue: chunks of slots, one CAS an offer. */
    @Benchmark
    public long mailbox() {
        mailbox.offer(letter());
        return mailbox.poll().payload;
    }

    /** The run queues' counted linked queue, the mailbox's before: an atomic add and an exchange an offer, and the stub. */
    @Benchmark
    public long linked() {
        linked.offer(letter());
        return linked.poll().payload;
    }

    @Benchmark
    public long jctoolsLinked() {
        jctoolsLinked.offer(letter());
        return jctoolsLinked.poll().payload;
    }

    @Benchmark
    public long jctoolsChunked() {
        jctoolsChunked.offer(letter());
        return jctoolsChunked.poll().payload;
    }

    @Benchmark
    public long jctoolsXadd() {
        jctoolsXadd.offer(letter());
        return jctoolsXadd.poll().payload;
    }

    @Benchmark
    public long agronaLinked() {
        agronaLinked.offer(letter());
        return agronaLinked.poll().payload;
    }
}
