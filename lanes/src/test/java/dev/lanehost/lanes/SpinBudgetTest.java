package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lanehost.lanes.idle.SpinBudget;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import org.junit.jupiter.api.Test;

/** The adaptive spin: longer after near misses, shorter after long parks, always within its bounds. */
class SpinBudgetTest {

    @Test
    void workArrivingJustAfterEachParkDoublesTheSpinUpToTheMost() {
        SpinBudget budget = new SpinBudget(16, 4_000);
        assertEquals(2_000, budget.rounds(), "starts halfway");
        budget.parked(50_000, 20_000); // woken 20 µs after a 50 µs spin: a near miss
        assertEquals(4_000, budget.rounds());
        budget.parked(100_000, 150_000);
        assertEquals(4_000, budget.rounds(), "never above the most");
    }

    @Test
    void longParksHalveTheSpinDownToTheLeast() {
        SpinBudget budget = new SpinBudget(16, 4_000);
        for (int i = 0; i < 20; i++) {
            budget.parked(50_000, 1_000_000); // a 1 kHz tick: the spin never catches the work
        }
        assertEquals(16, budget.rounds());
        budget.parked(400, 500); // then a caller starts answering at once
        assertEquals(32, budget.rounds());
    }

    @Test
    void strategiesSayWhetherTheyAdaptAndRefuseBadBounds() {
        assertEquals(2_000, IdleStrategy.DEFAULT.newSpinBudget().rounds());
        assertNull(IdleStrategy.backoff(100, 0).newSpinBudget());
        assertNull(IdleStrategy.busySpin().newSpinBudget());
        assertEquals(8, IdleStrategy.adaptive(4, 16).newSpinBudget().rounds());
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.adaptive(-1, 5));
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.adaptive(10, 5));
    }

    @Test
    void aParkLastsUntilTheWakeUpWasCalledNotUntilTheWorkerResumed() {
        assertEquals(300, Worker.waited(1_000, 1_300, 9_000), "woken 300 ns in; resumed 8 us in");
        assertEquals(8_000, Worker.waited(1_000, 500, 9_000), "a stamp from an earlier park: until now");
        assertEquals(8_000, Worker.waited(1_000, 0, 9_000), "never woken (a timed return): until now");
        SpinBudget budget = new SpinBudget(16, 4_000);
        for (int i = 0; i < 20; i++) {
            budget.parked(800, 6_000); // a least spin, then a wake-up that took 6 us to resume
        }
        assertEquals(16, budget.rounds(), "measured to the resumption, every park looked long");
        for (int i = 0; i < 20; i++) {
            budget.parked(800, Worker.waited(0, 300, 6_000)); // the sender called 300 ns after the park
        }
        assertEquals(4_000, budget.rounds(), "measured to the wake-up call, the spin grows back");
    }
}
