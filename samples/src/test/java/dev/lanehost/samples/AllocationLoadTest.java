package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AllocationLoadTest {
    @Test
    void theBytesDueKeepGrowingThroughATenMinuteRunAt100MBPerSecond() {
        long rate = 100_000_000L;
        assertEquals(9_200_000_000L, AllocationLoad.dueBytes(TimeUnit.SECONDS.toNanos(92), rate));
        assertEquals(9_300_000_000L, AllocationLoad.dueBytes(TimeUnit.SECONDS.toNanos(93), rate), "past 92 s: no overflow");
        assertEquals(60_000_000_000L, AllocationLoad.dueBytes(TimeUnit.SECONDS.toNanos(600), rate));
        assertEquals(150_000L, AllocationLoad.dueBytes(TimeUnit.MILLISECONDS.toNanos(1) + 999, 150_000_000L));
    }
}
