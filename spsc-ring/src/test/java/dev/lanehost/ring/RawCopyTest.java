package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawCopyTest {

    @Test
    void aRingThatOwnsItsMemoryCopiesLongPiecesByMemcpyAndAWrappedOneDoesNot() {
        assumeTrue(ProducerFence.isSupported(), "membarrier is not available here");
        try (SpscByteRing own = SpscByteRing.allocate(1 << 14); Arena arena = Arena.ofShared()) {
            assertTrue(own.copiesLongPiecesNatively()); // the tests run with native access: the fast path is the one tested
            MemorySegment memory = arena.allocate(SpscByteRingDescriptor.memoryLength(1 << 14), SpscByteRingDescriptor.ALIGNMENT);
            SpscByteRing wrapped = SpscByteRing.initialize(memory, 1 << 14);
            assertFalse(wrapped.copiesLongPiecesNatively()); // its arena is the caller's: only the JDK's copy is safe there
        }
    }

    /**
     * A ring that owns its memory reaches it at its raw address, which no arena checks: after close every write and
     * read, short or long, must be stopped by the ring's own guard, not touch freed memory.
     */
    @Test
    void everyWriteAndReadOfAClosedRingThrowsWhateverItsLength() {
        assumeTrue(ProducerFence.isSupported(), "membarrier is not available here");
        SpscByteRing ring = SpscByteRing.allocate(1 << 14);
        assertTrue(ring.copiesLongPiecesNatively());
        ring.write(new byte[100], 0, 100); // something to read, were the memory still there
        ring.close();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(4096);
            for (int length : new int[] {0, 1, 64, 4096}) {
                String what = length + " bytes";
                assertClosed(() -> ring.write(new byte[length], 0, length), what);
                assertClosed(() -> ring.write(segment, 0, length), what);
                assertClosed(() -> ring.write(java.nio.ByteBuffer.allocate(length)), what);
                assertClosed(() -> ring.write(java.nio.ByteBuffer.allocateDirect(length)), what);
                assertClosed(() -> ring.read(new byte[length], 0, length), what);
                assertClosed(() -> ring.read(segment, 0, length), what);
                assertClosed(() -> ring.read(java.nio.ByteBuffer.allocate(length)), what);
                assertClosed(() -> ring.read(java.nio.ByteBuffer.allocateDirect(length)), what);
            }
        }
    }

    /** Thrown because the ring is closed (not, say, because freed memory read as corrupt positions). */
    private static void assertClosed(org.junit.jupiter.api.function.Executable call, String what) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call, what);
        assertTrue(e.getMessage().contains("closed"), what + ": " + e.getMessage());
    }

    @Test
    void longWritesOfEveryShapeKeepEveryByteAcrossTheWrap() {
        int capacity = 1 << 14;
        int[] lengths = {2047, 2048, 2049, 3000, 4096, 5001, 8192, capacity};
        Random random = new Random(7);
        try (SpscByteRing ring = SpscByteRing.allocate(capacity)) {
            for (int round = 0; round < 200; round++) {
                int length = lengths[round % lengths.length];
                int offset = random.nextInt(64);
                byte[] in = new byte[offset + length];
                random.nextBytes(in);
                assertEquals(length, ring.write(in, offset, length), "round " + round);
                byte[] out = new byte[length];
                assertEquals(length, ring.read(out, 0, length));
                byte[] expected = java.util.Arrays.copyOfRange(in, offset, offset + length);
                assertArrayEquals(expected, out, "round " + round + ", " + length + " bytes from offset " + offset);
                // a short transfer moves the positions so the next long piece straddles the end at a new place
                int shift = 1 + random.nextInt(1000);
                ring.write(new byte[shift], 0, shift);
                ring.read(new byte[shift], 0, shift);
            }
        }
    }

    @Test
    void aCloseRacingLongWritesAndReadsEndsThemWithAnException() throws Exception {
        assumeTrue(ProducerFence.isSupported(), "membarrier is not available here");
        for (int round = 0; round < 100; round++) {
            SpscByteRing ring = SpscByteRing.allocate(1 << 14);
            byte[] piece = new byte[4096];
            CountDownLatch writing = new CountDownLatch(1);
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread producer = new Thread(() -> {
                byte[] sink = new byte[4096];
                try {
                    while (true) {
                        ring.write(piece, 0, piece.length);
                        writing.countDown();
                        ring.read(sink, 0, sink.length);
                    }
                } catch (Throwable e) {
                    ended.set(e);
                }
            });
            producer.start();
            writing.await();
            for (int spin = round * 37; spin > 0; spin--) {
                Thread.onSpinWait(); // a different moment in the producer's loop each round
            }
            ring.close();
            producer.join();
            assertInstanceOf(IllegalStateException.class, ended.get(), "round " + round);
        }
    }

    @Test
    void longWritesAndReadsOfEveryKindOfSegmentKeepEveryByteAcrossTheWrap() {
        int capacity = 1 << 14;
        int[] lengths = {2048, 3000, 4096, 5001, capacity};
        Random random = new Random(11);
        try (SpscByteRing ring = SpscByteRing.allocate(capacity);
                Arena confined = Arena.ofConfined();
                Arena shared = Arena.ofShared()) {
            for (int round = 0; round < 200; round++) { // every pair of kinds, source by destination, many times
                int length = lengths[round % lengths.length];
                int offset = 8 * random.nextInt(8);
                byte[] bytes = new byte[offset + length];
                random.nextBytes(bytes);
                byte[] expected = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
                MemorySegment src = segment(round % 5, bytes, confined, shared);
                MemorySegment dst = segment(round / 5 % 4, new byte[offset + length], confined, shared);
                String what = "round " + round + ", " + length + " bytes at " + offset + " of " + src + " to " + dst;
                assertEquals(length, ring.write(src, offset, length), what);
                assertEquals(length, ring.read(dst, offset, length), what);
                assertArrayEquals(expected, dst.asSlice(offset, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), what);
                int shift = 1 + random.nextInt(1000);
                ring.write(new byte[shift], 0, shift);
                ring.read(new byte[shift], 0, shift);
            }
        }
    }

    /**
     * A segment holding {@code contents}, of one of five kinds: 0 a confined arena's, 1 a shared arena's, 2 the array
     * itself, 3 a {@code long[]} (a heap segment not over bytes), 4 a shared arena's, read-only (a source only).
     */
    private static MemorySegment segment(int kind, byte[] contents, Arena confined, Arena shared) {
        MemorySegment heap = MemorySegment.ofArray(contents);
        return switch (kind) {
            case 0 -> confined.allocate(contents.length).copyFrom(heap);
            case 1 -> shared.allocate(contents.length).copyFrom(heap);
            case 2 -> heap;
            case 3 -> MemorySegment.ofArray(new long[contents.length / 8 + 1]).copyFrom(heap);
            default -> shared.allocate(contents.length).copyFrom(heap).asReadOnly();
        };
    }

    @Test
    void aSourceTheProducerMayNotReadFailsTheWriteAndLosesNothingAccepted() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(1 << 14)) {
            byte[] accepted = new byte[3000];
            new Random(3).nextBytes(accepted);
            assertEquals(accepted.length, ring.write(accepted, 0, accepted.length));
            long position = ring.producerPosition();

            assertThrows(IllegalStateException.class, () -> ring.write(closedSegment(4096), 0, 4096));
            withAnotherThreadsSegment(4096,
                    elsewhere -> assertThrows(WrongThreadException.class, () -> ring.write(elsewhere, 0, 4096)));

            assertEquals(position, ring.producerPosition(), "a failed write publishes nothing");
            byte[] out = new byte[accepted.length];
            assertEquals(accepted.length, ring.read(out, 0, out.length));
            assertArrayEquals(accepted, out);
            assertEquals(0, ring.readable());
        }
    }

    @Test
    void aSourceInsideTheRingsOwnMemoryIsCopiedAsIfThroughABuffer() {
        int capacity = 1 << 14;
        try (SpscByteRing ring = SpscByteRing.allocate(capacity)) {
            byte[] pattern = new byte[capacity];
            new Random(5).nextBytes(pattern);
            ring.write(new byte[2000], 0, 2000);
            ring.read(new byte[2000], 0, 2000);
            MemorySegment data = ring.memory().asSlice(SpscByteRingDescriptor.HEADER_LENGTH, capacity);
            data.copyFrom(MemorySegment.ofArray(pattern)); // the data as it stands before the write
            // The write lands at 2000; its source starts 1000 bytes before that and overlaps it, where a forward copy
            // would read bytes it had just written. memcpy is not allowed there: the bytes must be those before the
            // write, as MemorySegment.copy guarantees.
            long from = 1000;
            int length = 4096;
            assertEquals(length, ring.write(data, from, length));
            byte[] out = new byte[length];
            assertEquals(length, ring.read(out, 0, length));
            assertArrayEquals(java.util.Arrays.copyOfRange(pattern, (int) from, (int) from + length), out);
        }
    }

    @Test
    void aDestinationTheConsumerMayNotWriteFailsTheReadAndConsumesNothing() throws Exception {
        try (SpscByteRing ring = SpscByteRing.allocate(1 << 14)) {
            byte[] accepted = new byte[5000];
            new Random(19).nextBytes(accepted);
            assertEquals(accepted.length, ring.write(accepted, 0, accepted.length));
            long position = ring.consumerPosition();

            assertThrows(IllegalStateException.class, () -> ring.read(closedSegment(4096), 0, 4096));
            withAnotherThreadsSegment(4096,
                    elsewhere -> assertThrows(WrongThreadException.class, () -> ring.read(elsewhere, 0, 4096)));
            assertThrows(IllegalArgumentException.class,
                    () -> ring.read(MemorySegment.ofArray(new byte[4096]).asReadOnly(), 0, 4096));

            assertEquals(position, ring.consumerPosition(), "a failed read consumes nothing");
            byte[] out = new byte[accepted.length];
            assertEquals(accepted.length, ring.read(out, 0, out.length));
            assertArrayEquals(accepted, out);
        }
    }

    @Test
    void longCopiesOfWholeArraysAllocateNothingEvenWithoutEscapeAnalysis(@TempDir Path dir) throws Exception {
        assumeTrue(ProducerFence.isSupported(), "membarrier is not available here");
        // Whether the JIT removes a heap segment made for each copy varies from one JVM to the next (in about half of
        // them it did not); with escape analysis off it never does, so this fails whenever a copy makes one.
        ChildJvm.Finished child = ChildJvm.run(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED",
                "-XX:-DoEscapeAnalysis", "-cp", ChildJvm.classPath(), RawCopyAllocationProgram.class.getName()),
                dir.resolve("output.txt"));
        String printed = child.printed();
        assertEquals(0, child.exitCode(), printed);
        assertTrue(printed.contains("copiesLongPiecesNatively=true"), printed);
        long allocated = Long.parseLong(printed.replaceAll("(?s).*allocated=(\\d+).*", "$1"));
        // 10,000 writes and reads of 4 KiB: a segment a copy (the smallest object is 16 bytes) would show 320,000.
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 10,000 long writes and reads");
    }

    /** A segment whose (shared) arena is closed. */
    private static MemorySegment closedSegment(long size) {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(size);
        arena.close();
        return segment;
    }

    /** Runs {@code use} on this thread with a segment confined to another thread, which keeps it alive until then. */
    private static void withAnotherThreadsSegment(long size, Consumer<MemorySegment> use) throws InterruptedException {
        AtomicReference<MemorySegment> elsewhere = new AtomicReference<>();
        CountDownLatch made = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread owner = Thread.ofPlatform().start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                elsewhere.set(arena.allocate(size));
                made.countDown();
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        made.await();
        try {
            use.accept(elsewhere.get());
        } finally {
            done.countDown();
            owner.join();
        }
    }
}
