package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.testhost.TestHost;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Waiting across the languages: a C producer wakes a Java consumer asleep in {@code awaitReadable}, and a
 * Java producer wakes a C consumer asleep in {@code lanehost_ring_wait_readable}. Both sleep and wake on the
 * same futex word. Delays only vary the timing; the tests assert bytes and statuses.
 */
class RingWakeupTest {
    /** Long enough that only a lost wake-up reaches it. */
    private static final Duration LONG = Duration.ofSeconds(30);
    private static final long SEED = 0x1234;

    @BeforeEach
    void linuxOnly() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "waiting needs Linux futexes");
    }

    @Test
    void cProducerWakesASleepingJavaConsumer() throws InterruptedException {
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            TestHost.ForeignThread[] producer = new TestHost.ForeignThread[1];
            Thread starter = Thread.ofPlatform().start(() -> {
                // Only once the consumer below has announced that it sleeps: then the first write must wake it.
                awaitCondition(ring::hasWaiter, "the Java consumer to announce that it sleeps");
                producer[0] = TestHost.start(TestHost.Role.PRODUCER, ring, 1000, SEED, 1000, TestHost.PATTERN);
            });

            assertTrue(ring.awaitReadable(1, LONG), "timed out: the C producer's write did not wake the Java consumer");
            starter.join();
            assertEquals(new TestHost.Result(0, 1000, TestHost.NO_MISMATCH), producer[0].join());
            assertTrue(ring.wakeCount() >= 1, ring.toString());
            byte[] got = new byte[1000];
            assertEquals(1000, ring.read(got, 0, 1000));
            for (int i = 0; i < got.length; i++) {
                assertEquals(TestHost.patternByte(i, SEED), got[i], "byte " + i);
            }
        }
    }

    @Test
    void javaConsumerWaitsThroughAStreamFromAPausingCProducer() throws InterruptedException {
        final long total = 2L << 20;
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            TestHost.ForeignThread producer = TestHost.start(TestHost.Role.PRODUCER, ring, total, SEED, 500,
                    TestHost.PATTERN | TestHost.RANDOM_CHUNKS | TestHost.PAUSES);
            SplittableRandom random = new SplittableRandom(7);
            byte[] buffer = new byte[4096];
            long position = 0;
            while (position < total) {
                long minBytes = 1 + random.nextLong(Math.min(700, total - position)); // partial writes wake it early
                assertTrue(ring.awaitReadable(minBytes, LONG), "timed out at byte " + position + ": a lost wake-up");
                int got = ring.read(buffer, 0, buffer.length);
                assertTrue(got >= minBytes, got + " < " + minBytes);
                for (int i = 0; i < got; i++) {
                    if (buffer[i] != TestHost.patternByte(position + i, SEED)) {
                        assertEquals(TestHost.patternByte(position + i, SEED), buffer[i], "byte " + (position + i));
                    }
                }
                position += got;
            }
            assertEquals(new TestHost.Result(0, total, TestHost.NO_MISMATCH), producer.join());
            assertTrue(ring.wakeCount() <= ring.doorbell(), ring.toString());
            assertFalse(ring.hasWaiter());
        }
    }

    @Test
    void javaProducerWakesASleepingCConsumer() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            TestHost.ForeignThread consumer = TestHost.start(TestHost.Role.CONSUMER, ring, 1000, SEED, 1000,
                    TestHost.PATTERN | TestHost.WAIT);
            awaitCondition(ring::hasWaiter, "the C consumer to announce that it sleeps");

            byte[] bytes = new byte[1000];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = TestHost.patternByte(i, SEED);
            }
            assertEquals(1000, ring.write(bytes, 0, bytes.length));

            // A lost wake-up would end the consumer with STATUS_TIMED_OUT after 30 s.
            assertEquals(new TestHost.Result(0, 1000, TestHost.NO_MISMATCH), consumer.join());
            assertEquals(1, ring.wakeCount());
            assertFalse(ring.hasWaiter());
        }
    }

    @Test
    void cConsumerWaitsThroughAStreamFromAPausingJavaProducer() {
        final long total = 2L << 20;
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            TestHost.ForeignThread consumer = TestHost.start(TestHost.Role.CONSUMER, ring, total, SEED, 700,
                    TestHost.PATTERN | TestHost.RANDOM_CHUNKS | TestHost.WAIT);
            SplittableRandom random = new SplittableRandom(11);
            byte[] chunk = new byte[500];
            long position = 0;
            while (position < total) {
                int length = (int) Math.min(1 + random.nextInt(chunk.length), total - position);
                for (int i = 0; i < length; i++) {
                    chunk[i] = TestHost.patternByte(position + i, SEED);
                }
                int done = 0;
                while (done < length) {
                    int written = ring.write(chunk, done, length - done);
                    if (written == 0) {
                        Thread.onSpinWait();
                    }
                    done += written;
                }
                position += length;
                int delay = random.nextInt(200); // 0 to 50 us, a quarter of the time none: only the timing varies
                if (delay >= 50) {
                    LockSupport.parkNanos((delay - 50) * 333L);
                }
            }
            assertEquals(new TestHost.Result(0, total, TestHost.NO_MISMATCH), consumer.join(),
                    "status -10 is STATUS_TIMED_OUT: the C consumer slept through a Java write");
            assertTrue(ring.wakeCount() <= ring.doorbell(), ring.toString());
            assertFalse(ring.hasWaiter());
        }
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what + " after " + LONG);
            }
            Thread.yield();
        }
    }
}
