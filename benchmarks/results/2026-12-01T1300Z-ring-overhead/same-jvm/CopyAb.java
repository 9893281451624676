import java.lang.foreign.*;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import static java.lang.foreign.ValueLayout.*;

/** byte[] -> native -> byte[] copies, strategies rotated in one JVM; ns per pair of copies. */
public class CopyAb {
    static volatile byte sink;
    static final VarHandle BA_LONG = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    interface S { void run(byte[] src, MemorySegment mem, byte[] dst, ByteBuffer view, long off, int len); }

    public static void main(String[] args) {
        int len = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Arena arena = Arena.ofShared();
        MemorySegment mem = arena.allocate(1 << 16, 128);
        ByteBuffer view = mem.asByteBuffer();
        byte[] src = new byte[len], dst = new byte[len];
        String[] names = {"segCopyArray", "segCopyOfArray", "byteBuffer", "longLoop"};
        S[] ss = {
            (s, m, d, v, o, l) -> { MemorySegment.copy(s, 0, m, JAVA_BYTE, o, l); MemorySegment.copy(m, JAVA_BYTE, o, d, 0, l); },
            (s, m, d, v, o, l) -> { MemorySegment.copy(MemorySegment.ofArray(s), 0, m, o, l); MemorySegment.copy(m, o, MemorySegment.ofArray(d), 0, l); },
            (s, m, d, v, o, l) -> { v.put((int) o, s, 0, l); v.get((int) o, d, 0, l); },
            (s, m, d, v, o, l) -> {
                int i = 0;
                for (; i + 8 <= l; i += 8) m.set(JAVA_LONG_UNALIGNED, o + i, (long) BA_LONG.get(s, i));
                for (; i < l; i++) m.set(JAVA_BYTE, o + i, s[i]);
                i = 0;
                for (; i + 8 <= l; i += 8) BA_LONG.set(d, i, m.get(JAVA_LONG_UNALIGNED, o + i));
                for (; i < l; i++) d[i] = m.get(JAVA_BYTE, o + i);
            },
        };
        int n = 2_000_000;
        double[][] t = new double[ss.length][rounds];
        for (int w = 0; w < 5; w++) for (S s : ss) time(s, src, mem, dst, view, len, n);
        for (int r = 0; r < rounds; r++) for (int k = 0; k < ss.length; k++) t[k][r] = time(ss[k], src, mem, dst, view, len, n);
        for (int k = 0; k < ss.length; k++) { Arrays.sort(t[k]); System.out.printf("len %d %-15s %.2f ns%n", len, names[k], t[k][rounds / 2]); }
    }

    static double time(S s, byte[] src, MemorySegment mem, byte[] dst, ByteBuffer view, int len, int n) {
        long p = 0;
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) { s.run(src, mem, dst, view, p, len); p = (p + len) & 0xFFFF; }
        sink = dst[0];
        return (System.nanoTime() - t) / (double) n;
    }
}
