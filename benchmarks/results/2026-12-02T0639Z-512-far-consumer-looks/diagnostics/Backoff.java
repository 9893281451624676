import dev.lanehost.ring.SpscByteRing;

/** Diagnostic: a Java producer writes 512 B chunks; the consumer reads 512 B; when it finds the ring empty it spins
 *  once (mode 0, as the benchmark does) or B pauses (modes 1..3: 8, 32, 128) before it looks again. Alternate windows. */
public class Backoff {
    static volatile boolean running = true;
    public static void main(String[] args) throws Exception {
        int chunk = 512, windows = Integer.parseInt(args.length > 0 ? args[0] : "40");
        int[] pauses = {1, 8, 32, 128};
        try (SpscByteRing ring = SpscByteRing.allocate(1 << 20)) {
            byte[] src = new byte[chunk];
            Thread producer = new Thread(() -> {
                while (running) {
                    int done = 0;
                    while (done < chunk && running) {
                        int n = ring.write(src, done, chunk - done);
                        if (n == 0) Thread.onSpinWait();
                        done += n;
                    }
                }
            });
            producer.start();
            byte[] dst = new byte[chunk];
            for (int w = 0; w < windows; w++) {
                for (int mode = 0; mode < pauses.length; mode++) {
                    long bytes = 0, empty = 0;
                    long start = System.nanoTime(), end = start + 100_000_000L;
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 256; i++) {
                            int n = ring.read(dst, 0, chunk);
                            if (n == 0) { empty++; for (int p = 0; p < pauses[mode]; p++) Thread.onSpinWait(); } else bytes += n;
                        }
                    }
                    if (w >= 4) System.out.printf("w%d mode=%d GB/s=%.3f emptyPerMsg=%.2f%n", w, mode, bytes / (double) (System.nanoTime() - start), empty / (bytes / 512.0));
                }
            }
            running = false;
            producer.join();
        }
    }
}
