package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.observe.RuntimeEvents;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import java.lang.management.ManagementFactory;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;

/** The hooks on turn and steal paths allocate nothing while no recording enables their events, even with the recorder up. */
class RuntimeEventsCostTest {
    private static final int WARM_UP_CALLS = 60_000;
    private static final int MEASURED_CALLS = 10_000;

    @Test
    void disabledTurnAndStealHooksAllocateNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        // The recorder up but recording nothing: the hooks get past the recorder check to their event types'.
        assumeTrue(FlightRecorder.getFlightRecorder().getRecordings().stream()
                .noneMatch(recording -> recording.getState() == RecordingState.RUNNING), "no Flight Recorder recording runs in this JVM");
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            ActorRef actor = runtime.spawnPinned(0, "pinned", () -> (c, m) -> { });
            ActorCell cell = runtime.actors.live(actor.id());
            Worker thief = runtime.scheduler.pool().worker(1);
            Worker victim = runtime.scheduler.pool().worker(0);
            hooks(cell, thief, victim, WARM_UP_CALLS);
            long before = threads.getCurrentThreadAllocatedBytes();
            hooks(cell, thief, victim, MEASURED_CALLS);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, allocated, "bytes allocated by " + MEASURED_CALLS + " calls of each hook");
        }
    }

    /** Its own method, so the measured loop compiles as the hook sites do. */
    private static void hooks(ActorCell cell, Worker thief, Worker victim, int calls) {
        for (int i = 0; i < calls; i++) {
            RuntimeEvents.turnOverBudget(cell.id, cell.name, cell.placement, RuntimeEvents.SLOW, i, 1);
            RuntimeEvents.steal(thief, victim, cell.id, cell.name);
        }
    }
}
