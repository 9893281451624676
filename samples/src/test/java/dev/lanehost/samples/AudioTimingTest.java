package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class AudioTimingTest {
    private final SpscByteRing ring = SpscByteRing.allocate(4096);
    private final ByteBuffer record = ByteBuffer.allocate(AudioTiming.RECORD_BYTES).order(ByteOrder.nativeOrder());

    private void write(long index, boolean dropped) {
        record.clear().putLong(1_000 * index).putLong(512).putLong(128 * index).putInt(128).putInt(dropped ? 1 : 0).flip();
        ring.write(record);
    }

    @Test
    void keepingFirstKeepsThatManyAndCountsTheRest() {
        AudioTiming timing = AudioTiming.keepingFirst(ring, 3);
        for (int i = 0; i < 10; i++) {
            write(i, i == 7);
        }
        assertEquals(10, timing.drain());
        assertEquals(3, timing.count());
        assertEquals(10, timing.read());
        assertEquals(1, timing.droppedPeriods(), "a dropped period is counted whether kept or not");
        assertEquals(256, timing.firstSample(2));
        assertEquals(0, ring.readable(), "records beyond what it keeps are still read out of the ring");
    }

    @Test
    void theDefaultKeepsEveryRecord() {
        AudioTiming timing = new AudioTiming(ring);
        for (int i = 0; i < 1500; i++) {
            write(i, false);
            if (i % 100 == 99) {
                timing.drain();
            }
        }
        timing.drain();
        assertEquals(1500, timing.count());
        assertEquals(1500, timing.read());
        assertEquals(1499L * 128, timing.firstSample(1499));
    }

    @Test
    void refusesANegativeNumberToKeep() {
        assertThrows(IllegalArgumentException.class, () -> AudioTiming.keepingFirst(ring, -1));
    }
}
