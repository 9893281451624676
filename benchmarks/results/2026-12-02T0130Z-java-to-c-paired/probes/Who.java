import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.benchmarks.PlacementProbe;

/** Who waits: for javaToC and cToC at a chunk, windows of 300 ms with a placement probe before each. */
public class Who {
    static final java.lang.invoke.MethodHandle WRITE_ONCE;
    static {
        java.lang.foreign.Linker l = java.lang.foreign.Linker.nativeLinker();
        WRITE_ONCE = l.downcallHandle(dev.lanehost.nativeloader.NativeLibraryLoader.load(TestHost.class, "lanehost_testhost", "lanehost_testhost_abi_version", TestHost.ABI_VERSION).lookup().find("lanehost_testhost_write_once").orElseThrow(),
            java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.JAVA_LONG),
            java.lang.foreign.Linker.Option.critical(true));
    }
    public static void main(String[] a) {
        int chunk = Integer.parseInt(a[0]);
        int windows = Integer.parseInt(a[1]);
        byte[] src = new byte[chunk];
        java.lang.foreign.MemorySegment seg0 = java.lang.foreign.Arena.global().allocate(chunk + 8192, 4096);
        int misalign = Integer.getInteger("misalign", 0);
        java.lang.foreign.MemorySegment segDefault = java.lang.foreign.MemorySegment.ofAddress(seg0.address() + misalign).reinterpret(chunk);
        for (int w = 0; w < windows; w++) {
            for (String mode : a.length > 2 ? a[2].split(",") : new String[] {"javaToC", "cToC"}) {
                PlacementProbe.Result p = PlacementProbe.measure(20_000);
                SpscByteRing ring = SpscByteRing.allocate(1 << 20);
                long dataMod = (ring.memory().address() + dev.lanehost.ring.SpscByteRingDescriptor.HEADER_LENGTH) % 4096;
                TestHost.ForeignThread peer = !mode.equals("cToC")
                        ? TestHost.start(TestHost.Role.CONSUMER, ring, 0, 1, chunk, 0)
                        : TestHost.start(TestHost.Role.PRODUCER, ring, 0, 1, chunk, 0);
                long moved = 0, full = 0, start = System.nanoTime(), end = start + 300_000_000L, writes = 0;
                // warm a bit
                long o0 = 0, u0 = 0; boolean warm = false; long t0 = start;
                while (true) {
                    long now = System.nanoTime();
                    if (!warm && now - start > 100_000_000L) { warm = true; o0 = ring.overrunCount(); u0 = ring.underrunCount(); moved = 0; t0 = now; }
                    if (now > end) break;
                    if (mode.equals("javaToC")) {
                        for (int i = 0; i < 256; i++) { int n = ring.write(src, 0, chunk); moved += n; if (n == 0) Thread.onSpinWait(); }
                    } else if (mode.startsWith("cwrite")) {
                        java.lang.foreign.MemorySegment heap = java.lang.foreign.MemorySegment.ofArray(src);
                        java.lang.foreign.MemorySegment s2 = mode.contains("@") ? java.lang.foreign.MemorySegment.ofAddress(seg0.address() + Integer.parseInt(mode.substring(mode.indexOf('@') + 1))).reinterpret(chunk) : heap;
                        long mem = ring.memory().address();
                        try {
                            for (int i = 0; i < 256; i++) { long n = (long) WRITE_ONCE.invokeExact(mem, 1L << 20, s2, (long) chunk); moved += n; if (n == 0) Thread.onSpinWait(); }
                        } catch (Throwable e) { throw new RuntimeException(e); }
                    } else if (mode.equals("cToCswap")) {
                        moved += TestHost.transfer(TestHost.Role.PRODUCER, ring, 1 << 20, chunk);
                    } else if (mode.startsWith("seg")) {
                        java.lang.foreign.MemorySegment seg = mode.contains("@") ? java.lang.foreign.MemorySegment.ofAddress(seg0.address() + Integer.parseInt(mode.substring(mode.indexOf('@') + 1))).reinterpret(chunk) : segDefault;
                        for (int i = 0; i < 256; i++) { long n = ring.write(seg, 0, chunk); moved += n; if (n == 0) Thread.onSpinWait(); }
                    } else if (mode.equals("javaToCy")) {
                        int spins = 0;
                        for (int i = 0; i < 256; i++) { int n = ring.write(src, 0, chunk); moved += n; if (n == 0) { if (++spins < 64) Thread.onSpinWait(); else Thread.yield(); } else spins = 0; }
                    } else {
                        moved += TestHost.transfer(TestHost.Role.CONSUMER, ring, 1 << 20, chunk);
                    }
                }
                long t = System.nanoTime() - t0;
                long over = ring.overrunCount() - o0, under = ring.underrunCount() - u0;
                double readable = ring.readable();
                peer.stop(); peer.join();
                ring.close();
                System.out.printf("%s %-8s %6.1f ns  %6.2f GB/s  ns/transfer %6.1f  overruns/transfer %.3f underruns/transfer %.3f data%%4096 %d%n",
                        p.placement(), mode, p.medianNanos(), moved / (double) t, t / (moved / (double) chunk),
                        over / (moved / (double) chunk), under / (moved / (double) chunk), dataMod);
            }
        }
    }
}
