package dev.lanehost.testhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.ring.SpscByteRing;
import java.util.SplittableRandom;
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
}
