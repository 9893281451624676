package dev.lanehost.benchmarks;
import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import org.openjdk.jmh.annotations.*;
import java.util.concurrent.TimeUnit;
import static java.lang.foreign.ValueLayout.*;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DowncallCost {
    static final Linker L = Linker.nativeLinker();
    static final MemorySegment MEMCPY = L.defaultLookup().findOrThrow("memcpy");
    static final MethodHandle SEG = L.downcallHandle(MEMCPY, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), Linker.Option.critical(true));
    static final MethodHandle SEG_NOHEAP = L.downcallHandle(MEMCPY, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), Linker.Option.critical(false));
    static final MethodHandle LONGS = L.downcallHandle(MEMCPY, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), Linker.Option.critical(false));
    static final MethodHandle LONGS_NONCRIT = L.downcallHandle(MEMCPY, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    @Param({"0", "4096"}) int n;
    MemorySegment dst, heap, nat; long dstAddr, natAddr; byte[] arr;
    @Setup public void setup() {
        dst = Arena.global().allocate(1 << 16, 4096).asSlice(2048);
        dstAddr = dst.address();
        arr = new byte[4096];
        heap = MemorySegment.ofArray(arr);
        nat = Arena.ofConfined().allocate(4096, 4096);
        natAddr = nat.address();
    }
    @Benchmark public long heapCritical() throws Throwable { return (long) SEG.invokeExact(dstAddr, heap, (long) n); }
    @Benchmark public long nativeSegCritical() throws Throwable { return (long) SEG.invokeExact(dstAddr, nat, (long) n); }
    @Benchmark public long nativeSegNonCritical() throws Throwable { return (long) SEG_NOHEAP.invokeExact(dstAddr, nat, (long) n); }
    @Benchmark public long longsCritical() throws Throwable { return (long) LONGS.invokeExact(dstAddr, natAddr, (long) n); }
    @Benchmark public long longsNonCritical() throws Throwable { return (long) LONGS_NONCRIT.invokeExact(dstAddr, natAddr, (long) n); }
    @Benchmark public void segmentCopyHeap() { MemorySegment.copy(heap, 0, dst, 0, n); }
}
