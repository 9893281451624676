package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.WorkerStats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Blocking calls to one actor on two busy-spinning workers: the worker that keeps the actor scheduled between calls
 * and the other one, a thief, take it from each other's door again and again (on two cores the caller is a third
 * spinning thread, so the keeper often loses its core with a letter waiting). A worker that looked at its kept actor's
 * mailbox after a thief had taken it moved the mailbox's consumer behind the thief, which was consuming it: the actor
 * stayed scheduled with a letter nobody could take, and from then on every call timed out. Here that came within 0.7
 * to 4.3 million calls, five runs of five; the same race alone is jcstress {@code MpscChunkStaleLookTest}.
 */
class StolenKeptActorTest {
    private static final int CALLS = 3_000_000;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void callsToAnActorThievesTakeFromItsKeeperAreAllAnswered() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).idleStrategy(IdleStrategy.busySpin()).build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        CallGate gate = CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
        List<Object> args = List.of(7L, "frame");
        for (int i = 0; i < CALLS; i++) {
            CallResult result = gate.call(args, Duration.ofSeconds(5));
            if (result.status() != CallStatus.OK) {
                // Not closed: the close of a runtime whose actor is lost this way never ends (its workers are daemons).
                fail("call " + i + " of " + CALLS + " answered " + result.status() + ": " + result.detail());
            }
        }
        long steals = runtime.metrics().workers().stream().mapToLong(WorkerStats::steals).sum();
        runtime.close();
        assertTrue(steals > 0, "the workers took the actor from each other: " + steals + " steals");
    }
}
