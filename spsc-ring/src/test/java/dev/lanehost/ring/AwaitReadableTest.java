package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Java consumer sleeps until bytes arrive and the Java producer wakes it, making a system call only when a
 * consumer announced that it sleeps. Delays only vary the timing; the tests assert data and outcomes.
 */
class AwaitReadableTest {
    /** Long enough that only a lost wake-up reaches it. */
    private static final Duration LONG = Duration.ofSeconds(30);

    @BeforeEach
    void linuxOnly() {
        assumeTrue(Futex.isSupported(), "waiting needs Linux futexes on x86-64, aarch64 or riscv64");
    }

    @Test
    void awaitReturnsAtOnceWhenEnoughIsReadable() throws InterruptedException {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.write(new byte[10], 0, 10);
            assertTrue(ring.awaitReadable(5, LONG));
            assertTrue(ring.awaitReadable(10, Duration.ZERO));
            assertFalse(ring.hasWaiter());
            assertEquals(0, ring.wakeCount());
        }
    }

    @Test
    void awaitTimesOutWhenNothingIsWritten() throws InterruptedException {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            assertFalse(ring.awaitReadable(1, Duration.ZERO));
            assertFalse(ring.awaitReadable(1, Duration.ofMillis(2)));
            ring.write(new byte[3], 0, 3);
            assertFalse(ring.awaitReadable(4, Duration.ofMillis(1)));
            // The timed-out waits took their announcement back: the write after them makes no wake call.
            assertFalse(ring.hasWaiter());
            ring.write(new byte[1], 0, 1);
            assertEquals(0, ring.wakeCount());
            assertTrue(ring.awaitReadable(4, Duration.ZERO));
        }
    }

    @Test
    void awaitRejectsBadArguments() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            assertMessage(() -> ring.awaitReadable(0, LONG), "minBytes must be in [1, capacity 64], got 0");
            assertMessage(() -> ring.awaitReadable(65, LONG), "minBytes must be in [1, capacity 64], got 65");
            assertMessage(() -> ring.awaitReadable(1, Duration.ofNanos(-1)), "timeout must not be negative");
            assertThrows(NullPointerException.class, () -> ring.awaitReadable(1, null));
        }
    }

    @Test
    void writesWithoutAWaiterMakeNoWakeCall() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            byte[] bytes = new byte[7];
            for (int i = 0; i < 1000; i++) {
                ring.write(bytes, 0, 7);
                ring.read(bytes, 0, 7);
            }
            ring.write(bytes, 0, 0);
            assertEquals(0, ring.wakeCount());
            // The producer only loads the wake word: with nobody waiting it never writes it (no locked instruction).
            assertEquals(0, wakeWord(ring));
        }
    }

    @Test
    void announcedWaiterCostsOneWakeThenTheBitIsClear() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            // A consumer's announce, as step 2 makes it: the next publishing write wakes, and clears the bit.
            ring.memory().set(ValueLayout.JAVA_INT, SpscByteRingDescriptor.WAKE_WORD_OFFSET, SpscByteRingDescriptor.WAKE_WAITER);
            assertTrue(ring.hasWaiter());
            ring.write(new byte[1], 0, 0);
            assertEquals(0, ring.wakeCount());
            ring.write(new byte[1], 0, 1);
            assertEquals(1, ring.wakeCount());
            assertFalse(ring.hasWaiter());
            ring.write(new byte[1], 0, 1);
            assertEquals(1, ring.wakeCount());
        }
    }

    @Test
    void announcedWaiterIsWokenByTheNextWrite() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            CompletableFuture<byte[]> consumer = CompletableFuture.supplyAsync(() -> {
                byte[] got = new byte[5];
                return awaitOrFail(ring, 1) && ring.read(got, 0, 5) == 5 ? got : null;
            });
            awaitCondition(ring::hasWaiter, "the consumer to announce that it sleeps");
            assertEquals(0, ring.wakeCount());

            ring.write("hello".getBytes(), 0, 5);

            assertArrayEquals("hello".getBytes(), consumer.get(LONG.toSeconds() * 2, TimeUnit.SECONDS));
            assertEquals(1, ring.wakeCount());
            assertFalse(ring.hasWaiter());
        }
    }

    @Test
    void waiterForMoreBytesSleepsThroughSmallerWrites() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(128)) {
            CompletableFuture<Boolean> consumer = CompletableFuture.supplyAsync(() -> awaitOrFail(ring, 100));
            for (int round = 0; round < 10; round++) {
                // Each write wakes the consumer; it finds too few bytes and announces again before sleeping.
                awaitCondition(ring::hasWaiter, "the consumer to announce that it sleeps");
                assertFalse(consumer.isDone());
                assertEquals(10, ring.write(new byte[10], 0, 10));
            }
            assertTrue(consumer.get(LONG.toSeconds() * 2, TimeUnit.SECONDS));
            assertEquals(100, ring.readable());
            assertEquals(10, ring.wakeCount());
            assertFalse(ring.hasWaiter());
        }
    }

    @Test
    void interruptEndsAWait() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread consumer = Thread.ofPlatform().start(() -> {
                try {
                    outcome.complete(ring.awaitReadable(1, LONG) ? null : new AssertionError("timed out"));
                } catch (Throwable e) {
                    outcome.complete(e);
                }
            });
            awaitCondition(ring::hasWaiter, "the consumer to announce that it sleeps");
            consumer.interrupt();
            assertInstanceOf(InterruptedException.class, outcome.get(LONG.toSeconds(), TimeUnit.SECONDS));
            assertFalse(ring.hasWaiter());
            ring.write(new byte[1], 0, 1);
            assertEquals(0, ring.wakeCount());
        }
    }

    @Test
    void aThreadInterruptedBeforeItWaitsIsNotLeftWaiting() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> ring.awaitReadable(1, LONG));
            assertFalse(Thread.currentThread().isInterrupted());
            assertFalse(ring.hasWaiter());
        }
    }

    @Test
    void waitingConsumerGetsEveryByteThroughThousandsOfRounds() throws Exception {
        final int rounds = 3000;
        final int maxRound = 512;
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            // Both sides derive the round lengths from one seed. The producer writes a round and waits until
            // the consumer has read it all, so every round ends with a consumer about to wait on an empty ring:
            // a lost wake-up cannot hide behind the next write, the consumer would time out.
            CompletableFuture<Long> consumer = CompletableFuture.supplyAsync(() -> {
                SplittableRandom lengths = new SplittableRandom(0x5EED);
                SplittableRandom random = new SplittableRandom(0xFACE);
                byte[] buffer = new byte[maxRound];
                long position = 0;
                for (int round = 0; round < rounds; round++) {
                    int remaining = 1 + lengths.nextInt(maxRound);
                    while (remaining > 0) {
                        int minBytes = 1 + random.nextInt(remaining); // partial writes wake it early
                        if (!awaitOrFail(ring, minBytes)) {
                            throw new AssertionError("round " + round + ": timed out waiting for " + minBytes + " bytes");
                        }
                        int got = ring.read(buffer, 0, (int) Math.min(remaining, ring.readable()));
                        for (int i = 0; i < got; i++) {
                            if (buffer[i] != patternByte(position + i)) {
                                throw new AssertionError("byte " + (position + i) + " is wrong");
                            }
                        }
                        position += got;
                        remaining -= got;
                    }
                }
                return position;
            });

            SplittableRandom lengths = new SplittableRandom(0x5EED);
            SplittableRandom random = new SplittableRandom(0xC0FFEE);
            byte[] chunk = new byte[maxRound];
            long produced = 0;
            for (int round = 0; round < rounds && !consumer.isDone(); round++) {
                int length = 1 + lengths.nextInt(maxRound);
                for (int i = 0; i < length; i++) {
                    chunk[i] = patternByte(produced + i);
                }
                int first = 1 + random.nextInt(length); // the round in one or two writes, a delay before each
                randomDelay(random);
                assertEquals(first, ring.write(chunk, 0, first));
                if (first < length) {
                    randomDelay(random);
                    assertEquals(length - first, ring.write(chunk, first, length - first));
                }
                produced += length;
                long expected = produced;
                awaitCondition(() -> ring.consumerPosition() == expected || consumer.isDone(), "the consumer to read round " + round);
            }

            assertEquals(produced, consumer.get(LONG.toSeconds() * 2, TimeUnit.SECONDS));
            assertTrue(ring.wakeCount() <= ring.doorbell(), ring.toString());
            assertFalse(ring.hasWaiter());
        }
    }

    private static boolean awaitOrFail(SpscByteRing ring, long minBytes) {
        try {
            return ring.awaitReadable(minBytes, LONG);
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted", e);
        }
    }

    /** 0 to 50 us, a quarter of the time none: only the timing varies, nothing waits on it. */
    private static void randomDelay(SplittableRandom random) {
        int delay = random.nextInt(200);
        if (delay >= 50) {
            LockSupport.parkNanos((delay - 50) * 333L);
        }
    }

    private static byte patternByte(long position) {
        return (byte) (position ^ (position >>> 8) ^ (position >>> 16));
    }

    private static int wakeWord(SpscByteRing ring) {
        return ring.memory().get(ValueLayout.JAVA_INT, SpscByteRingDescriptor.WAKE_WORD_OFFSET);
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what + " after " + LONG);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private interface Await {
        void run() throws Exception;
    }

    private static void assertMessage(Await action, String fragment) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, action::run);
        assertTrue(thrown.getMessage().contains(fragment), () -> "message '" + thrown.getMessage() + "' lacks '" + fragment + "'");
    }
}
