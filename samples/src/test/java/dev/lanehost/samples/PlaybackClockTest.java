package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PlaybackClockTest {
    private static final long MS = 1_000_000;

    @Test
    void nothingIsDueUntilTheLatencyHasPassed() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000, 1_000 * MS);
        assertEquals(0, clock.due(1_000 * MS, 0));
        assertEquals(0, clock.due(1_020 * MS, 0));
        assertEquals(48, clock.due(1_021 * MS, 0));
    }

    @Test
    void dueCountsWhatRealTimeHasPlayedLessWhatWasRead() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000, 0);
        assertEquals(48_000, clock.due(1_020 * MS, 0));
        assertEquals(8_000, clock.due(1_020 * MS, 40_000));
        assertEquals(0, clock.due(1_020 * MS, 48_000));
    }

    @Test
    void anUnderrunStartsPlaybackAgainALatencyBehindFromWhatWasRead() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000, 0);
        clock.underrun(500 * MS, 10_000);
        assertEquals(0, clock.due(520 * MS, 10_000));
        assertEquals(480, clock.due(530 * MS, 10_000));
    }

    @Test
    void refusesANegativeLatencyOrRate() {
        assertThrows(IllegalArgumentException.class, () -> new PlaybackClock(Duration.ofMillis(-1), 48_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new PlaybackClock(Duration.ofMillis(20), 0, 0));
    }
}
