package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

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
    void aCloseRacingLongWritesEndsThemWithAnExceptionAndNeverWritesFreedMemory() throws Exception {
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
}
