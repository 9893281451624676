package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 64 MiB each way through a 64 KiB ring (1024 wraparounds), random chunk sizes on both sides, every byte
 * verified against the position-dependent test pattern: Java to Java, C to Java, Java to C. The C side
 * is a pthread of the test host, so Java never created it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RingTransferTest {
    private static final long TOTAL = 64L << 20;
    private static final long CAPACITY = 64 << 10;
    private static final int MAX_CHUNK = 9000; // not a divisor of the capacity: chunks straddle the end
    private static final ExecutorService JAVA_SIDE = Executors.newSingleThreadExecutor(r -> new Thread(r, "java-side"));

    @AfterAll
    static void stopJavaSide() {
        JAVA_SIDE.shutdownNow();
    }

    @Test
    void javaToJavaMovesEveryByteInOrder() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(CAPACITY)) {
            CompletableFuture<Long> produced = CompletableFuture.supplyAsync(() -> produce(ring, 11), JAVA_SIDE);
            assertEquals(-1, consume(ring, 11, 12), "first wrong byte");
            assertEquals(TOTAL, produced.get());
            assertEquals(0, ring.readable());
        }
    }

    @Test
    void cToJavaMovesEveryByteInOrder() {
        // C allocated and formatted the memory; Java wraps it.
        MemorySegment memory = TestHost.allocateRing(CAPACITY);
        try {
            SpscByteRing ring = SpscByteRing.wrap(memory);
            TestHost.ForeignThread producer = TestHost.start(TestHost.Role.PRODUCER, ring, TOTAL, 21, MAX_CHUNK,
                    TestHost.PATTERN | TestHost.RANDOM_CHUNKS);
            long firstMismatch = consume(ring, 21, 22);
            TestHost.Result result = producer.join();
            assertEquals(-1, firstMismatch, "first wrong byte");
            assertEquals(new TestHost.Result(0, TOTAL, TestHost.NO_MISMATCH), result);
            assertEquals(0, ring.readable());
        } finally {
            TestHost.freeRing(memory);
        }
    }

    @Test
    void javaToCMovesEveryByteInOrder() {
        // Java allocated and formatted the memory; C wraps it.
        try (SpscByteRing ring = SpscByteRing.allocate(CAPACITY)) {
            TestHost.ForeignThread consumer = TestHost.start(TestHost.Role.CONSUMER, ring, TOTAL, 31, MAX_CHUNK,
                    TestHost.PATTERN | TestHost.RANDOM_CHUNKS);
            long produced = produce(ring, 31);
            TestHost.Result result = consumer.join();
            assertEquals(TOTAL, produced);
            assertEquals(new TestHost.Result(0, TOTAL, TestHost.NO_MISMATCH), result);
        }
    }

    @Test
    void theVerifierCatchesAWrongStream() {
        // The check that makes the three tests above meaningful: a stream from another seed fails at byte 0.
        MemorySegment memory = TestHost.allocateRing(CAPACITY);
        try {
            SpscByteRing ring = SpscByteRing.wrap(memory);
            TestHost.ForeignThread producer = TestHost.start(TestHost.Role.PRODUCER, ring, TOTAL, 41, MAX_CHUNK, TestHost.PATTERN);
            long firstMismatch = consume(ring, 42, 43);
            producer.join();
            assertEquals(0, firstMismatch);
        } finally {
            TestHost.freeRing(memory);
        }
    }

    /** Writes TOTAL bytes of the pattern in random chunks, spinning while the ring is full. */
    private static long produce(SpscByteRing ring, long seed) {
        SplittableRandom random = new SplittableRandom(seed * 7);
        byte[] chunk = new byte[MAX_CHUNK];
        long position = 0;
        while (position < TOTAL) {
            int length = (int) Math.min(1 + random.nextInt(MAX_CHUNK), TOTAL - position);
            for (int i = 0; i < length; i++) {
                chunk[i] = TestHost.patternByte(position + i, seed);
            }
            int done = 0;
            while (done < length) {
                int n = ring.write(chunk, done, length - done);
                if (n == 0) {
                    Thread.onSpinWait();
                }
                done += n;
            }
            position += length;
        }
        return position;
    }

    /** Reads TOTAL bytes in random chunks and returns the position of the first wrong byte, or -1. */
    private static long consume(SpscByteRing ring, long seed, long chunkSeed) {
        SplittableRandom random = new SplittableRandom(chunkSeed);
        byte[] chunk = new byte[MAX_CHUNK];
        long position = 0;
        long firstMismatch = -1;
        while (position < TOTAL) {
            int n = ring.read(chunk, 0, (int) Math.min(1 + random.nextInt(MAX_CHUNK), TOTAL - position));
            if (n == 0) {
                Thread.onSpinWait();
                continue;
            }
            for (int i = 0; i < n && firstMismatch < 0; i++) {
                if (chunk[i] != TestHost.patternByte(position + i, seed)) {
                    firstMismatch = position + i;
                }
            }
            position += n;
        }
        return firstMismatch;
    }
}
