import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Diagnostic: a Java producer writes 512 B chunks; the consumer reads 512 B, and in mode 1 then writes one byte of
 *  each line it consumed (as Agrona's consumer zeroes what it read), in mode 2 zeroes all 512 bytes. Alternate windows. */
public class Zero {
    static volatile boolean running = true;
    public static void main(String[] args) throws Exception {
        int chunk = 512, windows = Integer.parseInt(args.length > 0 ? args[0] : "40");
        long cap = 1 << 20;
        try (SpscByteRing ring = SpscByteRing.allocate(cap)) {
            MemorySegment data = ring.memory().asSlice(SpscByteRingDescriptor.HEADER_LENGTH, cap);
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
            long pos = 0;
            for (int w = 0; w < windows; w++) {
                for (int mode = 0; mode < 3; mode++) {
                    long bytes = 0;
                    long start = System.nanoTime(), end = start + 100_000_000L;
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 256; i++) {
                            int n = ring.read(dst, 0, chunk);
                            if (n == 0) { Thread.onSpinWait(); continue; }
                            if (mode == 1) {
                                for (long p = (pos + 63) & ~63L; p < pos + n; p += 64) data.set(ValueLayout.JAVA_BYTE, p & (cap - 1), (byte) 0);
                            } else if (mode == 2) {
                                long off = pos & (cap - 1);
                                data.asSlice(off, Math.min(n, cap - off)).fill((byte) 0);
                            }
                            pos += n; bytes += n;
                        }
                    }
                    if (w >= 4) System.out.printf("w%d mode=%d GB/s=%.3f%n", w, mode, bytes / (double) (System.nanoTime() - start));
                }
            }
            running = false;
            producer.join();
        }
    }
}
