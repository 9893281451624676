import dev.lanehost.ring.RingBefore;
import dev.lanehost.ring.SpscByteRing;
import java.util.Arrays;

/** Alternates the two builds of the ring in one JVM: write one chunk, read it back; ns per pair. */
public class Ab {
    static volatile byte sink;

    public static void main(String[] args) {
        int chunk = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        byte[] src = new byte[chunk], dst = new byte[chunk];
        RingBefore before = RingBefore.allocate(1 << 16);
        SpscByteRing after = SpscByteRing.allocate(1 << 16);
        int n = 2_000_000;
        double[] b = new double[rounds], a = new double[rounds], r = new double[rounds];
        for (int w = 0; w < 5; w++) { runBefore(before, src, dst, n); runAfter(after, src, dst, n); }
        for (int i = 0; i < rounds; i++) {
            b[i] = runBefore(before, src, dst, n);
            a[i] = runAfter(after, src, dst, n);
            r[i] = a[i] / b[i];
        }
        Arrays.sort(b); Arrays.sort(a); Arrays.sort(r);
        System.out.printf("chunk %d: before %.2f ns, after %.2f ns, after/before median %.3f (p10 %.3f p90 %.3f)%n",
                chunk, b[rounds / 2], a[rounds / 2], r[rounds / 2], r[rounds / 10], r[rounds * 9 / 10]);
    }

    static double runBefore(RingBefore ring, byte[] src, byte[] dst, int n) {
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (ring.write(src, 0, src.length) != src.length || ring.read(dst, 0, dst.length) != dst.length) throw new AssertionError();
        }
        sink = dst[0];
        return (System.nanoTime() - t) / (double) n;
    }

    static double runAfter(SpscByteRing ring, byte[] src, byte[] dst, int n) {
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (ring.write(src, 0, src.length) != src.length || ring.read(dst, 0, dst.length) != dst.length) throw new AssertionError();
        }
        sink = dst[0];
        return (System.nanoTime() - t) / (double) n;
    }
}
