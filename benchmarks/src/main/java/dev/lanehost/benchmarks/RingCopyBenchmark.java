package dev.lanehost.benchmarks;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ring's Java write copy, one thread, cache-hot: a {@code byte[]} into native memory with
 * {@link MemorySegment#copy} (what {@code SpscByteRing.write} does) against glibc's {@code memcpy} through a
 * critical downcall that reads the array in place ({@code Linker.Option.critical(true)}). It answers two
 * questions for the copy strategy: the downcall's fixed cost (the small sizes) and where {@code memcpy}
 * starts to win (the large ones). {@code empty} is the downcall with zero bytes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class RingCopyBenchmark {
    private static final MethodHandle MEMCPY = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().findOrThrow("memcpy"),
            // void *memcpy(void *dst, const void *src, size_t n): dst as a number (no segment to allocate)
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG),
            Linker.Option.critical(true));

    @Param({"64", "512", "2048", "4096", "65536"})
    public int size;

    private Arena arena;
    private MemorySegment ring;
    private long ringAddress;
    private byte[] source;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        ring = arena.allocate(65536, 128);
        ringAddress = ring.address();
        source = new byte[size];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment segmentCopy() {
        MemorySegment.copy(source, 0, ring, JAVA_BYTE, 0, size);
        return ring;
    }

    @Benchmark
    public long memcpyDowncall() throws Throwable {
        return (long) MEMCPY.invokeExact(ringAddress, MemorySegment.ofArray(source), (long) size);
    }

    @Benchmark
    public long emptyDowncall() throws Throwable {
        return (long) MEMCPY.invokeExact(ringAddress, MemorySegment.ofArray(source), 0L);
    }
}
