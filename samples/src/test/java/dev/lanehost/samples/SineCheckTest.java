package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class SineCheckTest {
    private static final double FREQUENCY = 440;
    private static final int RATE = 48_000;

    private final SpscByteRing ring = SpscByteRing.allocate(64 * 1024);
    private final ByteBuffer period = ByteBuffer.allocate(128 * Float.BYTES).order(ByteOrder.nativeOrder());
    private long written;

    private void writePeriod() {
        period.clear();
        for (int i = 0; i < 128; i++) {
            period.putFloat(JackClient.sineSample(written + i, FREQUENCY, RATE));
        }
        period.flip();
        ring.write(period);
        written += 128;
    }

    @Test
    void readTakesAtMostWhatIsAsked() {
        SineCheck check = new SineCheck(ring, FREQUENCY, RATE);
        for (int i = 0; i < 8; i++) {
            writePeriod();
        }
        assertEquals(300, check.read(300));
        assertEquals(300, check.samples());
        assertEquals(1024 - 300, check.read(Long.MAX_VALUE), "the rest, and no more than there is");
        assertEquals(0, check.read(10));
        assertEquals(-1, check.firstMismatch());
    }

    @Test
    void readFindsAWrongSample() {
        SineCheck check = new SineCheck(ring, FREQUENCY, RATE);
        writePeriod();
        ring.write(ByteBuffer.allocate(Float.BYTES).order(ByteOrder.nativeOrder()).putFloat(0, 2f));
        assertEquals(129, check.read(1000));
        assertEquals(128, check.firstMismatch());
        assertEquals(2f, check.mismatchValue());
    }

    @Test
    void readingAPeriodAllocatesNothing() {
        SineCheck check = new SineCheck(ring, FREQUENCY, RATE);
        AllocationCheck.assertAllocationFree("SineCheck.read", 1_000, () -> {
            writePeriod();
            check.read(128);
        });
        assertEquals(-1, check.firstMismatch());
    }
}
