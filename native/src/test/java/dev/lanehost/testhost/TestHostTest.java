package dev.lanehost.testhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class TestHostTest {

    @Test
    void javaAndCPatternsAgree() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            long position = i < 50_000 ? i : random.nextLong();
            long seed = random.nextLong();
            assertEquals(TestHost.nativePatternByte(position, seed), TestHost.patternByte(position, seed),
                    "position " + position + " seed " + seed);
        }
    }

    @Test
    void startRefusesBadArgumentsWithTheCMessage() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> TestHost.start(TestHost.Role.PRODUCER, ring, 10, 1, 0, 0));
            assertTrue(thrown.getMessage().contains("invalid argument"), thrown.getMessage());
        }
    }

    @Test
    void joinedThreadCannotBeJoinedAgain() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            TestHost.ForeignThread producer = TestHost.start(TestHost.Role.PRODUCER, ring, 10, 1, 8, 0);
            byte[] sink = new byte[10];
            int got = 0;
            while (got < 10) {
                got += ring.read(sink, got, 10 - got);
            }
            assertEquals(new TestHost.Result(0, 10, TestHost.NO_MISMATCH), producer.join());
            assertThrows(IllegalStateException.class, producer::join);
        }
    }

    @Test
    void echoMovesEveryPairThroughTheRingAndLeavesItEmpty() {
        try (SpscByteRing ring = SpscByteRing.allocate(1024)) {
            assertEquals(1000L * 384, TestHost.echo(ring, 1000, 384));
            assertEquals(0, ring.readable());
            assertEquals(1000, ring.doorbell()); // every write published: the bytes really went through the ring
        }
    }

    @Test
    void echoRefusesAChunkItCannotMoveWhole() {
        try (SpscByteRing ring = SpscByteRing.allocate(64)) {
            assertThrows(IllegalStateException.class, () -> TestHost.echo(ring, 1, 0));
            assertThrows(IllegalStateException.class, () -> TestHost.echo(ring, 1, 65));
            ring.write(new byte[1], 0, 1); // not empty: a 64-byte write moves only 63
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> TestHost.echo(ring, 1, 64));
            assertTrue(thrown.getMessage().contains("invalid argument"), thrown.getMessage());
        }
    }

    @Test
    void moveChunksWritesEachChunkOnFromWhereAPartialWriteStopped() throws Exception {
        int chunk = 384;
        int chunks = 50;
        // A ring smaller than a chunk: every chunk is written in parts, while a Java reader drains it.
        try (SpscByteRing ring = SpscByteRing.allocate(256); Arena arena = Arena.ofShared()) {
            MemorySegment source = arena.allocate(chunk);
            for (int i = 0; i < chunk; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            CompletableFuture<Long> writer = CompletableFuture.supplyAsync(
                    () -> TestHost.moveChunks(TestHost.Role.PRODUCER, ring, source, chunks, chunk));
            byte[] received = new byte[chunk * chunks];
            for (int got = 0; got < received.length; ) {
                int n = ring.read(received, got, received.length - got);
                if (n == 0 && writer.isDone() && ring.readable() == 0) {
                    break; // the writer stopped early: get() below says why
                }
                got += n;
            }
            assertEquals((long) chunk * chunks, writer.get());
            for (int i = 0; i < received.length; i++) {
                assertEquals((byte) ((i % chunk) * 7 + 1), received[i], "byte " + i);
            }
        }
    }

    @Test
    void moveChunksReadsEachChunkOnFromWhereAPartialReadStopped() throws Exception {
        int chunk = 384;
        try (SpscByteRing ring = SpscByteRing.allocate(256); Arena arena = Arena.ofShared()) {
            MemorySegment buffer = arena.allocate(chunk);
            CompletableFuture<Long> reader = CompletableFuture.supplyAsync(
                    () -> TestHost.moveChunks(TestHost.Role.CONSUMER, ring, buffer, 1, chunk));
            byte[] sent = new byte[chunk];
            for (int i = 0; i < chunk; i++) {
                sent[i] = (byte) (i * 5 + 3);
            }
            for (int done = 0; done < chunk && !reader.isCompletedExceptionally(); ) { // in parts: the ring holds 256 bytes
                done += ring.write(sent, done, chunk - done);
            }
            assertEquals(chunk, reader.get());
            for (int i = 0; i < chunk; i++) {
                assertEquals(sent[i], buffer.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
        }
    }

    @Test
    void moveChunksRefusesABufferItCannotCopyThrough() {
        try (SpscByteRing ring = SpscByteRing.allocate(1024); Arena arena = Arena.ofConfined()) {
            IllegalArgumentException onHeap = assertThrows(IllegalArgumentException.class,
                    () -> TestHost.moveChunks(TestHost.Role.PRODUCER, ring, MemorySegment.ofArray(new byte[64]), 1, 64));
            assertTrue(onHeap.getMessage().contains("native memory"), onHeap.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> TestHost.moveChunks(TestHost.Role.CONSUMER, ring, arena.allocate(32), 1, 64));
            IllegalStateException noChunk = assertThrows(IllegalStateException.class,
                    () -> TestHost.moveChunks(TestHost.Role.PRODUCER, ring, arena.allocate(32), 1, 0));
            assertTrue(noChunk.getMessage().contains("invalid argument"), noChunk.getMessage());
            assertEquals(0, ring.readable()); // nothing written by a refused call
        }
    }
}
