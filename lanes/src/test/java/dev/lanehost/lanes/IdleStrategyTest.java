package dev.lanehost.lanes;

import static dev.lanehost.lanes.idle.IdleStep.PARK;
import static dev.lanehost.lanes.idle.IdleStep.SPIN;
import static dev.lanehost.lanes.idle.IdleStep.YIELD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What an idle worker does in each round of its idle spell, by strategy. */
class IdleStrategyTest {
    @Test
    void backoffSpinsThenYieldsThenParks() {
        IdleStrategy backoff = IdleStrategy.backoff(2, 1);
        int rounds = backoff.roundsBeforePark();
        assertEquals(3, rounds);
        assertEquals(SPIN, backoff.step(0, rounds));
        assertEquals(SPIN, backoff.step(1, rounds));
        assertEquals(YIELD, backoff.step(2, rounds));
        assertEquals(PARK, backoff.step(3, rounds));
        assertEquals(PARK, IdleStrategy.backoff(0, 0).step(0, 0), "parks at once");
    }

    @Test
    void busySpinSpinsInEveryRoundNeverYieldingNorParking() {
        IdleStrategy busy = IdleStrategy.busySpin();
        int rounds = busy.roundsBeforePark();
        for (int round : new int[] {0, 1, 1_000_000, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
            assertEquals(SPIN, busy.step(round, rounds), "round " + round);
        }
    }

    @Test
    void adaptiveSpinsThroughItsBudgetThenParks() {
        IdleStrategy adaptive = IdleStrategy.adaptive(16, 4_000);
        int budget = adaptive.newSpinBudget().rounds();
        assertEquals(SPIN, adaptive.step(budget - 1, budget));
        assertEquals(PARK, adaptive.step(budget, budget));
    }
}
