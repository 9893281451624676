package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PlaybackLeadTest {
    private static final long PERIOD = 2_666_667; // 128 frames at 48 kHz
    private static final long TICK = 1_000_000;

    @Test
    void aFixedLeadNeverMoves() {
        PlaybackLead lead = PlaybackLead.fixed(PERIOD, TICK, 3);
        lead.observePause(50_000_000);
        assertEquals(3, lead.periods());
        assertEquals(3 * PERIOD, lead.latencyNanos());
        assertEquals(3 * 512, lead.bytes(512));
        assertEquals("fixed at 3 periods", lead.reason());
    }

    @Test
    void anAdaptiveLeadCoversTheRareLongPauseNotTheWorstEver() {
        PlaybackLead lead = PlaybackLead.adaptive(PERIOD, TICK, 2, 16);
        assertEquals(2, lead.periods(), "nothing measured yet: the minimum");
        for (int i = 0; i < 3_000; i++) {
            lead.observePause(200_000); // ZGC-sized pauses and small stalls
        }
        // ceil((0.2 ms + 1 ms tick) / 2.67 ms) + 1 = 2
        assertEquals(2, lead.periods());
        for (int i = 0; i < 10; i++) {
            lead.observePause(6_000_000); // ten 6 ms stalls in 3,010: above the 99.9th percentile
        }
        // ceil((6 + 1) / 2.67) + 1 = 4
        assertEquals(4, lead.periods(), lead.reason());
        assertTrue(lead.reason().startsWith("4 periods: covers a 6000 us pause (p99.9 of the last 3010) plus a 1000 us render tick"),
                lead.reason());
        lead.observePause(500_000_000); // one freak half-second: not the 99.9th percentile, and capped anyway
        assertEquals(4, lead.periods());
    }

    @Test
    void theLeadStaysWithinItsBoundsAndForgetsOldPauses() {
        PlaybackLead lead = PlaybackLead.adaptive(PERIOD, TICK, 2, 5);
        for (int i = 0; i < 100; i++) {
            lead.observePause(100_000_000);
        }
        assertEquals(5, lead.periods(), "capped");
        assertTrue(lead.reason().endsWith("capped at the maximum"), lead.reason());
        for (int i = 0; i < 2 * PlaybackLead.WINDOW; i++) {
            lead.observePause(0);
        }
        assertEquals(2, lead.periods(), "a window of quiet pauses brings it back down");
    }

    @Test
    void selectionFindsTheKthSmallestLikeASort() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(300);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(50); // many duplicates
            }
            long[] sorted = values.clone();
            java.util.Arrays.sort(sorted);
            int k = random.nextInt(n);
            assertEquals(sorted[k], PlaybackLead.select(values.clone(), n, k), "n " + n + ", k " + k);
        }
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PlaybackLead.adaptive(0, TICK, 2, 4));
        assertThrows(IllegalArgumentException.class, () -> PlaybackLead.adaptive(PERIOD, TICK, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> PlaybackLead.adaptive(PERIOD, TICK, 5, 4));
    }
}
