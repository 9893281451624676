package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.queue.WorkFlag;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunQueueTest {

    @Test
    void bandsAreServedStrictlyInOrderFifoWithinABand() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            RunQueue queue = new RunQueue("test", null, null, new WorkFlag());
            List<ActorCell> cells = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                cells.add(new ActorCell(100 + i, "c" + i, Placement.NORMAL, runtime.context(), queue, null, null, runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { }));
            }
            // Populate all four bands, the lowest-priority first, two actors each.
            int[] bandOf = {3, 3, 2, 2, 1, 1, 0, 0};
            for (int i = 0; i < cells.size(); i++) {
                queue.offer(cells.get(i), bandOf[i]);
            }
            assertEquals(List.of(2L, 2L, 2L, 2L), List.of(queue.depth(0), queue.depth(1), queue.depth(2), queue.depth(3)));
            List<Long> order = new ArrayList<>();
            for (ActorCell cell; (cell = queue.poll()) != null; ) {
                order.add(cell.id);
            }
            assertEquals(List.of(106L, 107L, 104L, 105L, 102L, 103L, 100L, 101L), order);
            assertEquals(0, queue.depth());
            assertNull(queue.poll());
        }
    }

    @Test
    void aHigherBandArrivingLaterIsServedFirst() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            RunQueue queue = new RunQueue("test", null, null, new WorkFlag());
            ActorCell slow = new ActorCell(1, "slow", Placement.NORMAL, runtime.context(), queue, null, null, runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { });
            ActorCell ready = new ActorCell(2, "ready", Placement.NORMAL, runtime.context(), queue, null, null, runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { });
            queue.offer(slow, RunQueue.SLOW_BAND);
            queue.offer(ready, RunQueue.READY_BAND);
            assertEquals(2, queue.poll().id);
            assertEquals(1, queue.poll().id);
        }
    }
}
