package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class SpscByteRingTest {

    @Test
    void framesPassWholeAcrossTheWrapAndADropOrAFillCountsOnce() {
        // 12-byte frames (three float channels) do not divide a 64-byte ring: a write of what fits would end mid-frame.
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            byte[] in = new byte[6 * 12];
            for (int i = 0; i < in.length; i++) {
                in[i] = (byte) i;
            }
            assertEquals(5, ring.writeFrames(in, 0, 6, 12), "60 of 64 bytes: 5 whole frames, one dropped");
            assertEquals(1, ring.overrunCount());
            assertEquals(0, ring.writeFrames(in, 0, 1, 12), "4 bytes free: not one frame");
            assertEquals(2, ring.overrunCount());
            assertEquals(60, ring.readable());
            byte[] out = new byte[6 * 12];
            assertEquals(3, ring.readFrames(out, 0, 3, 12, (byte) 0));
            assertEquals(3, ring.writeFrames(in, 12, 3, 12), "across the wrap, whole: no drop");
            assertEquals(2, ring.overrunCount());
            assertEquals(5, ring.readFrames(out, 0, 6, 12, (byte) 0x7f), "5 whole frames, then one frame of fill");
            assertArrayEquals(Arrays.copyOfRange(in, 36, 60), Arrays.copyOfRange(out, 0, 24));
            assertArrayEquals(Arrays.copyOfRange(in, 12, 48), Arrays.copyOfRange(out, 24, 60));
            for (int i = 60; i < 72; i++) {
                assertEquals(0x7f, out[i]);
            }
            assertEquals(1, ring.underrunCount());
            assertEquals(0, ring.readFrames(out, 0, 0, 12, (byte) 0), "nothing asked: nothing counted");
            assertEquals(0, ring.writeFrames(in, 0, 0, 12));
            assertEquals(1, ring.underrunCount());
            assertEquals(2, ring.overrunCount());
            IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () -> ring.writeFrames(in, 0, 1, 65));
            assertTrue(tooBig.getMessage().contains("1 to 64 bytes"), tooBig.getMessage());
            assertThrows(IllegalArgumentException.class, () -> ring.readFrames(out, 0, 1, 0, (byte) 0));
            assertThrows(IllegalArgumentException.class, () -> ring.writeFrames(in, 0, -1, 12));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.writeFrames(in, 12, 6, 12));
            assertEquals(2, ring.overrunCount(), "a refused call counts nothing");
        }
    }

    @Test
    void writeThenReadAcrossTheWrapKeepsEveryByte() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            byte[] in = new byte[64 * 5];
            new Random(1).nextBytes(in);
            byte[] out = new byte[in.length];
            int written = 0;
            int read = 0;
            while (read < in.length) {
                written += ring.write(in, written, Math.min(23, in.length - written));
                read += ring.read(out, read, Math.min(17, out.length - read));
            }
            assertArrayEquals(in, out);
            assertEquals(in.length, ring.producerPosition());
            assertEquals(in.length, ring.consumerPosition());
        }
    }

    @Test
    void shortWriteReportsTheCountAndCountsAnOverrun() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            assertEquals(64, ring.write(new byte[100], 0, 100));
            assertEquals(1, ring.overrunCount());
            assertEquals(0, ring.write(new byte[1], 0, 1));
            assertEquals(2, ring.overrunCount());
            assertEquals(64, ring.readable());
            assertEquals(0, ring.writable());
        }
    }

    @Test
    void shortReadReportsTheCountAndCountsAnUnderrun() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            byte[] out = new byte[8];
            assertEquals(0, ring.read(out, 0, 8));
            assertEquals(1, ring.underrunCount());
            ring.write(new byte[] {1, 2, 3}, 0, 3);
            assertEquals(3, ring.read(out, 0, 8));
            assertEquals(2, ring.underrunCount());
            assertEquals(0, ring.read(out, 0, 0));
            assertEquals(2, ring.underrunCount());
            assertEquals(0, ring.overrunCount());
        }
    }

    @Test
    void doorbellCountsWritesThatPublished() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.write(new byte[10], 0, 10);
            ring.write(new byte[10], 0, 0);
            ring.write(new byte[100], 0, 100); // partial: publishes 54
            ring.write(new byte[1], 0, 1);     // full: publishes nothing
            assertEquals(2, ring.doorbell());
        }
    }

    @Test
    void segmentAndBufferVariantsMoveTheSameBytes() {
        try (SpscByteRing ring = SpscByteRing.allocate(128); Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(100);
            for (int i = 0; i < 100; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            assertEquals(60, ring.write(src, 10, 60));
            ByteBuffer heap = ByteBuffer.wrap(new byte[] {-1, -2, -3, -4}, 1, 2);
            assertEquals(2, ring.write(heap));
            assertEquals(3, heap.position());
            ByteBuffer direct = ByteBuffer.allocateDirect(8).put(new byte[] {9, 9, 9}).flip();
            assertEquals(3, ring.write(direct));
            assertFalse(direct.hasRemaining());

            MemorySegment dst = arena.allocate(60);
            assertEquals(60, ring.read(dst, 0, 60));
            for (int i = 0; i < 60; i++) {
                assertEquals((byte) (i + 10), dst.get(ValueLayout.JAVA_BYTE, i));
            }
            ByteBuffer into = ByteBuffer.allocate(2);
            assertEquals(2, ring.read(into));
            assertArrayEquals(new byte[] {-2, -3}, into.array());
            ByteBuffer directInto = ByteBuffer.allocateDirect(10);
            assertEquals(3, ring.read(directInto));
            assertEquals(3, directInto.position());
            assertEquals(9, directInto.get(2));
        }
    }

    @Test
    void readOnlyBufferIsReadFromButNotWrittenTo() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ByteBuffer readOnly = ByteBuffer.wrap(new byte[] {4, 5}).asReadOnlyBuffer();
            assertEquals(2, ring.write(readOnly));
            ByteBuffer target = ByteBuffer.allocate(2).asReadOnlyBuffer();
            assertMessage(() -> ring.read(target), "read-only");
            assertEquals(2, ring.readable(), "a refused read takes nothing out of the ring");
        }
    }

    @Test
    void badCapacitiesAreRefusedByName() {
        assertMessage(() -> SpscByteRing.allocate(100), "not a power of two");
        assertMessage(() -> SpscByteRing.allocate(32), "too small");
        assertMessage(() -> SpscByteRing.allocate(0), "too small");
        assertMessage(() -> SpscByteRing.allocate(-64), "too small");
        assertMessage(() -> SpscByteRing.allocate(Long.MAX_VALUE), "too large");
    }

    @Test
    void badMemoryIsRefusedByName() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64) + 128, 128);
            assertMessage(() -> SpscByteRing.initialize(memory.asSlice(8), 64), "not 128-byte aligned");
            assertMessage(() -> SpscByteRing.initialize(memory.asSlice(0, 400), 64), "needs 448");
            assertMessage(() -> SpscByteRing.initialize(MemorySegment.ofArray(new byte[1024]), 64), "native");
            assertMessage(() -> SpscByteRing.initialize(memory.asReadOnly(), 64), "read-only");
            assertMessage(() -> SpscByteRing.wrap(MemorySegment.NULL), "reinterpret");
        }
    }

    @Test
    void memoryAlignedTo64ButNot128IsRefused() {
        // 128 is the C header struct's alignment: a ring at a 64-byte boundary is undefined behaviour in C
        // and splits each side's pair of cache lines.
        try (Arena arena = Arena.ofConfined()) {
            long length = SpscByteRingDescriptor.memoryLength(64);
            MemorySegment halfAligned = arena.allocate(length + 128, 128).asSlice(64, length);
            assertMessage(() -> SpscByteRing.initialize(halfAligned, 64), "not 128-byte aligned");

            // A well-formed header at the wrong address is refused before any of it is read.
            MemorySegment formatted = arena.allocate(length, 128);
            SpscByteRing.initialize(formatted, 64);
            halfAligned.copyFrom(formatted);
            assertMessage(() -> SpscByteRing.wrap(halfAligned), "not 128-byte aligned");
        }
    }

    @Test
    void allocatedMemoryIsAlignedForTheCHeader() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            assertEquals(0, ring.memory().address() % 128, "address " + ring.memory().address());
        }
    }

    @Test
    void wrapChecksMagicVersionCapacityAndLength() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(128), 128);
            assertMessage(() -> SpscByteRing.wrap(memory), "magic is 0x00000000");

            SpscByteRing.initialize(memory, 128).write(new byte[] {7}, 0, 1);
            SpscByteRing wrapped = SpscByteRing.wrap(memory);
            assertEquals(128, wrapped.capacity());
            assertEquals(1, wrapped.readable());
            assertMessage(() -> SpscByteRing.wrap(memory.asSlice(0, 400)), "needs 512");

            // Version 2 has the same bytes but another waiting protocol: mixing the two would lose wake-ups.
            memory.set(ValueLayout.JAVA_INT, SpscByteRingDescriptor.VERSION_OFFSET, 2);
            assertMessage(() -> SpscByteRing.wrap(memory), "layout version is 2, this library reads version 3");
            memory.set(ValueLayout.JAVA_INT, SpscByteRingDescriptor.VERSION_OFFSET, SpscByteRingDescriptor.LAYOUT_VERSION);
            memory.set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.CAPACITY_OFFSET, 100);
            assertMessage(() -> SpscByteRing.wrap(memory), "header is invalid: ring capacity 100 is not a power of two");
        }
    }

    @Test
    void outOfRangeOffsetsAreRefusedAndLoseNothing() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.write(new byte[] {1, 2, 3}, 0, 3);
            byte[] buffer = new byte[4];
            assertThrows(IndexOutOfBoundsException.class, () -> ring.write(buffer, 2, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.write(buffer, -1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.write(buffer, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.read(buffer, 3, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.read(MemorySegment.ofArray(buffer), 0, 5));
            assertEquals(3, ring.readable());
            assertEquals(3, ring.read(buffer, 0, 4));
            assertArrayEquals(new byte[] {1, 2, 3, 0}, buffer);
        }
    }

    @Test
    void corruptPositionsAreReportedNotFollowed() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.memory().set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET, 1000);
            assertMessage(IllegalStateException.class, () -> ring.write(new byte[1], 0, 1), "ring positions are corrupt");
            assertMessage(IllegalStateException.class, () -> ring.read(new byte[1], 0, 1), "producer 1000, consumer 0");
            assertMessage(IllegalStateException.class, () -> ring.writeFrames(new byte[4], 0, 1, 4), "ring positions are corrupt");
            assertMessage(IllegalStateException.class, () -> ring.readFrames(new byte[4], 0, 1, 4, (byte) 0), "ring positions are corrupt");
            assertEquals(0, ring.overrunCount(), "reported, not taken for a full ring");
            assertEquals(64, ring.readable());
        }
    }

    @Test
    void readableAndWritableStayWithinTheCapacityOnACorruptHeader() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            setPositions(ring.memory(), 64, 548); // consumer ahead: the difference is -484
            assertEquals(64, ring.readable());
            assertEquals(0, ring.writable());
            setPositions(ring.memory(), 1000, 0); // producer more than the capacity ahead
            assertEquals(64, ring.readable());
            assertEquals(0, ring.writable());
        }
    }

    @Test
    void wrapRefusesCorruptPositions() {
        long[][] corrupt = {
            {50, 100},                           // consumer ahead of the producer
            {0, 1},                              // consumer one byte ahead
            {65, 0},                             // producer one byte more than the capacity ahead
            {1000, 0},
            {-1, 0},                             // a negative producer position
            {Long.MAX_VALUE, 0},
            {Long.MIN_VALUE, Long.MIN_VALUE + 1}, // consumer one byte ahead, across the sign
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64), 128);
            for (long[] positions : corrupt) {
                SpscByteRing ring = SpscByteRing.initialize(memory, 64);
                setPositions(memory, positions[0], positions[1]);
                assertMessage(() -> SpscByteRing.wrap(memory), "ring positions are corrupt");
                assertEquals(64, ring.readable());
                assertEquals(0, ring.writable());
            }
        }
    }

    @Test
    void wrapAcceptsPositionsThatWrappedPast2To64() {
        // Positions are unsigned counters: past 2^64 the producer wraps to small numbers while the consumer is
        // still near the top (and past 2^63 Java's long is negative). The difference is what must be <= capacity.
        long[][] consistent = {
            {5, -3},                             // 8 bytes readable across 2^64
            {0, -64},                            // full across 2^64
            {Long.MIN_VALUE, Long.MAX_VALUE},    // 1 byte readable across the sign
            {64, 0},                             // full
            {7, 7},                              // empty
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64), 128);
            for (long[] positions : consistent) {
                SpscByteRing.initialize(memory, 64);
                setPositions(memory, positions[0], positions[1]);
                assertEquals(positions[0] - positions[1], SpscByteRing.wrap(memory).readable());
            }

            // And bytes keep flowing across the boundary.
            SpscByteRing ring = SpscByteRing.initialize(memory, 64);
            setPositions(memory, -10, -10);
            byte[] in = new byte[20];
            for (int i = 0; i < in.length; i++) {
                in[i] = (byte) (i + 1);
            }
            byte[] out = new byte[20];
            assertEquals(20, ring.write(in, 0, 20));
            assertEquals(20, ring.readable());
            assertEquals(20, ring.read(out, 0, 20));
            assertArrayEquals(in, out);
            assertEquals(10, ring.producerPosition());
            assertEquals(10, ring.consumerPosition());
        }
    }

    @Test
    void secondProducerThreadTripsTheAssertion() throws Exception {
        assertTrue(SpscByteRing.class.desiredAssertionStatus(), "run the tests with -ea");
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.write(new byte[1], 0, 1);
            ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(() -> ring.write(new byte[1], 0, 1)).get());
            assertTrue(thrown.getCause() instanceof AssertionError, thrown.toString());
            assertTrue(thrown.getCause().getMessage().contains("one producer"), thrown.getCause().getMessage());
        }
    }

    @Test
    void secondConsumerThreadTripsTheAssertion() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            ring.read(new byte[1], 0, 1);
            ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(() -> ring.read(new byte[1], 0, 1)).get());
            assertTrue(thrown.getCause() instanceof AssertionError, thrown.toString());
            assertTrue(thrown.getCause().getMessage().contains("one consumer"), thrown.getCause().getMessage());
        }
    }

    @Test
    void producerAndConsumerMayBeDifferentThreads() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            CompletableFuture.runAsync(() -> ring.write(new byte[] {42}, 0, 1)).get();
            byte[] out = new byte[1];
            assertEquals(1, ring.read(out, 0, 1));
            assertEquals(42, out[0]);
        }
    }

    /** Every call that needs the ring's memory, as a user would make it: the ring-is-closed message is checked on each. */
    private static Map<String, Executable> callsNeedingTheMemory(SpscByteRing ring) {
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("readable", ring::readable);
        calls.put("writable", ring::writable);
        calls.put("producerPosition", ring::producerPosition);
        calls.put("consumerPosition", ring::consumerPosition);
        calls.put("doorbell", ring::doorbell);
        calls.put("wakeCount", ring::wakeCount);
        calls.put("hasWaiter", ring::hasWaiter);
        calls.put("overrunCount", ring::overrunCount);
        calls.put("underrunCount", ring::underrunCount);
        calls.put("markOwnerClosed", ring::markOwnerClosed);
        calls.put("isOwnerClosed", ring::isOwnerClosed);
        calls.put("write(byte[])", () -> ring.write(new byte[8], 0, 8));
        calls.put("write(segment)", () -> ring.write(MemorySegment.ofArray(new byte[8]), 0, 8));
        calls.put("write(direct buffer)", () -> ring.write(ByteBuffer.allocateDirect(8)));
        calls.put("read(byte[])", () -> ring.read(new byte[8], 0, 8));
        calls.put("read(segment)", () -> ring.read(MemorySegment.ofArray(new byte[8]), 0, 8));
        calls.put("read(direct buffer)", () -> ring.read(ByteBuffer.allocateDirect(8)));
        calls.put("awaitReadable", () -> ring.awaitReadable(1, Duration.ofSeconds(1)));
        return calls;
    }

    @Test
    void everyCallOnAClosedRingSaysSoAndToStringStillAnswers() {
        SpscByteRing ring = SpscByteRing.allocate(64);
        ring.close();
        callsNeedingTheMemory(ring).forEach((name, call) -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, call, name);
            assertEquals("the ring is closed", e.getMessage(), name);
        });
        assertEquals(64, ring.capacity());
        assertEquals("SpscByteRing[capacity=64, closed]", ring.toString());
    }

    @Test
    void aRingWrappedInAnArenaTheCallerClosedSaysItsMemoryIsGone() {
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64), 128);
        SpscByteRing ring = SpscByteRing.initialize(memory, 64);
        arena.close();
        callsNeedingTheMemory(ring).forEach((name, call) -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, call, name);
            assertTrue(e.getMessage().startsWith("the ring's memory is no longer there"), name + ": " + e.getMessage());
        });
        assertEquals("SpscByteRing[capacity=64, closed]", ring.toString());
    }

    @Test
    void aConsumerWaitingWhenTheRingClosesIsToldTheRingIsClosed() throws Exception {
        SpscByteRing ring = SpscByteRing.allocate(64);
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return ring.awaitReadable(1, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        while (!ring.hasWaiter() && !waiter.isDone()) {
            Thread.onSpinWait(); // until the consumer has announced that it sleeps
        }
        ring.close();
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> waiter.get(30, TimeUnit.SECONDS));
        assertTrue(thrown.getCause() instanceof IllegalStateException, String.valueOf(thrown.getCause()));
        assertEquals("the ring is closed", thrown.getCause().getMessage());
    }

    @Test
    void theOwnerClosedWordIsInTheHeaderForTheOtherSideToRead() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64), 128);
            SpscByteRing owner = SpscByteRing.initialize(memory, 64);
            SpscByteRing otherSide = SpscByteRing.wrap(memory);
            assertFalse(otherSide.isOwnerClosed());
            owner.markOwnerClosed();
            owner.markOwnerClosed(); // idempotent
            assertTrue(otherSide.isOwnerClosed());
            assertEquals(1, memory.get(ValueLayout.JAVA_INT, SpscByteRingDescriptor.OWNER_CLOSED_OFFSET));
            assertEquals(0, otherSide.readable(), "it says nothing about the bytes: the ring still works");
        }
    }

    @Test
    void closeFreesOwnMemoryButNotWrappedMemory() {
        SpscByteRing own = SpscByteRing.allocate(64);
        own.close();
        assertThrows(IllegalStateException.class, own::readable);
        own.close(); // idempotent

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(64), 128);
            SpscByteRing.initialize(memory, 64).close();
            assertEquals(0, SpscByteRing.wrap(memory).readable());
        }
    }

    private static void setPositions(MemorySegment memory, long producer, long consumer) {
        memory.set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.PRODUCER_POSITION_OFFSET, producer);
        memory.set(ValueLayout.JAVA_LONG, SpscByteRingDescriptor.CONSUMER_POSITION_OFFSET, consumer);
    }

    private static void assertMessage(Runnable action, String fragment) {
        assertMessage(IllegalArgumentException.class, action, fragment);
    }

    private static void assertMessage(Class<? extends RuntimeException> type, Runnable action, String fragment) {
        RuntimeException thrown = assertThrows(type, action::run);
        assertTrue(thrown.getMessage().contains(fragment), () -> "message '" + thrown.getMessage() + "' lacks '" + fragment + "'");
    }
}
