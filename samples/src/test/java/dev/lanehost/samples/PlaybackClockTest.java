package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The playback clock, driven by hand with the producer's sample count. */
class PlaybackClockTest {
    private static final long MS = 1_000_000;

    @Test
    void nothingIsDueUntilTheProducerIsALatencyAhead() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000);
        assertEquals(960, clock.latencySamples());
        assertEquals(0, clock.due(0, 0));
        assertEquals(0, clock.due(960, 0));
        assertEquals(48, clock.due(1_008, 0));
    }

    @Test
    void dueCountsWhatTheProducerWroteLessTheLatencyLessWhatWasRead() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000);
        assertEquals(48_000, clock.due(48_960, 0));
        assertEquals(8_000, clock.due(48_960, 40_000));
        assertEquals(0, clock.due(48_960, 48_000));
    }

    @Test
    void aProducerWhoseClockStandsStillMakesNothingDueHoweverLongTheWallClockRuns() {
        PlaybackClock clock = new PlaybackClock(Duration.ofMillis(20), 48_000);
        long read = clock.due(10_960, 0);
        assertEquals(10_000, read);
        assertEquals(0, clock.due(10_960, read), "no wall-clock time in the arithmetic: lost server cycles are no underrun");
    }

    @Test
    void lostCyclesAreTheCyclesTheWallClockAskedForLessThoseThatRan() {
        // 10 s at 48 kHz / 128 frames asks for 3,750 cycles.
        assertEquals(0, PlaybackClock.lostCycles(10_000 * MS, 3_750, 48_000, 128));
        assertEquals(250, PlaybackClock.lostCycles(10_000 * MS, 3_500, 48_000, 128));
        assertEquals(0, PlaybackClock.lostCycles(10_000 * MS, 3_751, 48_000, 128), "never negative");
    }

    @Test
    void refusesANegativeLatencyOrRate() {
        assertThrows(IllegalArgumentException.class, () -> new PlaybackClock(Duration.ofMillis(-1), 48_000));
        assertThrows(IllegalArgumentException.class, () -> new PlaybackClock(Duration.ofMillis(20), 0));
        assertThrows(IllegalArgumentException.class, () -> PlaybackClock.lostCycles(MS, 0, 48_000, 0));
    }
}
