package dev.lanehost.samples;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;

/**
 * The ring sample: a C pthread (a stand-in for a real-time audio or capture callback) produces a known
 * byte pattern into a ring that Java allocated; a Java thread consumes it and verifies every byte.
 *
 * <p>Usage: {@code java -cp samples/target/lanehost-demo.jar dev.lanehost.samples.RingDemo [MiB to move, default 256]}
 */
public final class RingDemo {
    private static final long RING_CAPACITY = 1 << 20;
    private static final int MAX_CHUNK = 64 * 1024;
    private static final long SEED = 0x1A7E_4057L;

    private RingDemo() {
    }

    public static void main(String[] args) {
        long mebibytes = args.length > 0 ? parsePositive(args[0]) : 256;
        long total = mebibytes << 20;

        try (SpscByteRing ring = SpscByteRing.allocate(RING_CAPACITY)) {
            System.out.printf("lanehost ring demo: C pthread -> %d KiB ring (Java-allocated) -> Java thread, %d MiB%n",
                    RING_CAPACITY >> 10, mebibytes);
            long start = System.nanoTime();
            TestHost.ForeignThread producer = TestHost.start(TestHost.Role.PRODUCER, ring, total, SEED, MAX_CHUNK,
                    TestHost.PATTERN | TestHost.RANDOM_CHUNKS);

            byte[] chunk = new byte[MAX_CHUNK];
            long position = 0;
            long firstBadByte = -1;
            while (position < total) {
                int n = ring.read(chunk, 0, (int) Math.min(chunk.length, total - position));
                if (n == 0) {
                    Thread.onSpinWait();
                    continue;
                }
                for (int i = 0; i < n && firstBadByte < 0; i++) {
                    if (chunk[i] != TestHost.patternByte(position + i, SEED)) {
                        firstBadByte = position + i;
                    }
                }
                position += n;
            }
            long elapsed = System.nanoTime() - start;
            TestHost.Result produced = producer.join();

            long lost = produced.moved() - position;
            double megabytesPerSecond = (position / 1e6) / (elapsed / 1e9);
            System.out.printf("moved %,d bytes in %.1f ms: %.0f MB/s (C side generates and Java side checks every byte)%n",
                    position, elapsed / 1e6, megabytesPerSecond);
            System.out.printf("producer status %d, overruns %d, underruns %d, doorbell %,d%n",
                    produced.status(), ring.overrunCount(), ring.underrunCount(), ring.doorbell());
            if (firstBadByte >= 0) {
                System.out.printf("CORRUPTED: first wrong byte at stream position %,d%n", firstBadByte);
            }
            System.out.printf("%,d bytes lost%n", lost);
            if (lost != 0 || firstBadByte >= 0 || produced.status() != 0) {
                System.exit(1);
            }
        }
    }

    private static long parsePositive(String text) {
        try {
            long value = Long.parseLong(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        System.err.println("usage: RingDemo [MiB to move, a positive integer]; got '" + text + "'");
        System.exit(2);
        return 0;
    }
}
