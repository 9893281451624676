import dev.lanehost.ring.SpscByteRing;

/** A Java producer writes 512 B chunks; the consumer reads 512 B per call or up to BIG per call, in alternate windows. */
public class ReadSize {
    static volatile boolean running = true;
    public static void main(String[] args) throws Exception {
        int chunk = 512, big = Integer.parseInt(args.length > 0 ? args[0] : "65536");
        int windows = Integer.parseInt(args.length > 1 ? args[1] : "40");
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
            byte[] dst = new byte[big];
            for (int w = 0; w < windows; w++) {
                for (int mode = 0; mode < 2; mode++) {
                    int piece = mode == 0 ? chunk : big;
                    long bytes = 0, reads = 0;
                    long end = System.nanoTime() + 100_000_000L, start = System.nanoTime();
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 256; i++) {
                            int n = ring.read(dst, 0, piece);
                            if (n == 0) Thread.onSpinWait(); else { bytes += n; reads++; }
                        }
                    }
                    double gbs = bytes / (double) (System.nanoTime() - start);
                    if (w >= 4) System.out.printf("w%d read=%d GB/s=%.3f bytes/read=%.0f%n", w, piece, gbs, bytes / (double) Math.max(1, reads));
                }
            }
            running = false;
            producer.join();
        }
    }
}
