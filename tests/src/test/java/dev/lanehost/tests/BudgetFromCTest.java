package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnBudget;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.testhost.TestHost.HostThread;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A host's callback is bounded by the turn budget: a lane actor that runs away inside a {@code lane_drive} from a
 * C pthread (through the host table, one turn at most) is disrupted, the drive comes back to C with OK, and the
 * actor has halted with BUDGET, while the host goes on driving the lane's other actors.
 */
class BudgetFromCTest {

    @Test
    void aRunawayLaneActorIsDisruptedAndTheHostsDriveReturns() {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(2), Duration.ofMillis(5), 1);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("audio");
            long handle = abi.exportLane(lane);
            ActorRef runaway = runtime.spawnOnLane("audio", "runaway", SpawnOptions.DEFAULT.withBudget(budget),
                    () -> (context, message) -> {
                        while (true) {
                            context.checkpoint();
                        }
                    });
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", () -> (context, message) -> { });
            try (HostThread host = TestHost.startHostThread(abi.table())) {
                assertEquals(CallStatus.OK, CallStatus.ofCode(host.drive(handle, 0, MemorySegment.NULL)), "the starts");
                runaway.tell("spin");
                assertEquals(CallStatus.OK, CallStatus.ofCode(host.drive(handle, 1, MemorySegment.NULL)),
                        "the drive that ran the runaway turn came back");
                assertEquals(ExitReason.BUDGET, runaway.exitReason().orElseThrow());
                mixer.tell("next period");
                assertEquals(CallStatus.OK, CallStatus.ofCode(host.drive(handle, 0, MemorySegment.NULL)));
                assertFalse(mixer.isTerminated(), "the lane's other actors go on");
            }
        }
    }
}
