package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.TurnBudget;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The turn budget is the handler's: copying a gate's result (encoding it, copying it as plain values, checking a CBOR
 * handler's bytes) is the runtime's work and earns the actor no strike, however long it takes. In SIMULATED virtual
 * time, which moves only at poll sites: the copy is made slow by a record accessor that polls (the encoder reads a
 * record through its accessors), so the same polls count against the handler or not by where they run.
 */
class GateBudgetTest {
    /** fast 1 ms, slow 2 ms, 3 strikes; at SIMULATED's 1 µs a poll, 2,500 polls are 2.5 ms: a strike, short of a disruption. */
    private static final TurnBudget SMALL = new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(2), 3);
    private static final int SLOW_POLLS = 2_500;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** The running handler's context, for the accessor the encoder calls after the handler has returned. */
    private static ActorContext copying;

    /** A result whose copy polls the turn {@link #SLOW_POLLS} times: a copy the budget would charge as slow. */
    public record SlowToCopy(int value) {
        @Override
        public int value() {
            for (int i = 0; i < SLOW_POLLS; i++) {
                copying.checkpoint();
            }
            return value;
        }
    }

    @AfterEach
    void noObserver() {
        GateCall.spinObserver = null;
        copying = null;
    }

    private static ActorRuntime simulated() {
        ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).seed(1).turnBudget(SMALL).build();
        GateCall.spinObserver = call -> runtime.runUntilIdle(Duration.ZERO); // the caller's spin runs the actor's turns
        return runtime;
    }

    private static int strikes(ActorRuntime runtime, String name) {
        return runtime.snapshot().actors().stream().filter(row -> row.name().equals(name)).findFirst().orElseThrow().strikes();
    }

    @Test
    void aFastHandlerWhoseResultIsSlowToCopyEarnsNoStrikeWhileASlowHandlerStillDoes() {
        try (ActorRuntime runtime = simulated()) {
            ActorRef actor = runtime.spawn("copied", () -> (context, message) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                if ("slow".equals(args)) {
                    for (int i = 0; i < SLOW_POLLS; i++) {
                        context.checkpoint(); // the handler's own 2.5 ms
                    }
                }
                copying = context;
                return new SlowToCopy(7);
            });
            for (int call = 1; call <= 4; call++) { // one more than the strike ceiling
                CallResult result = gate.call("fast", PATIENCE);
                assertEquals(CallStatus.OK, result.status(), "call " + call + ": " + result.detail());
                assertEquals(Map.of("value", 7L), result.value());
                assertEquals(0, strikes(runtime, "copied"), "call " + call + ": the copy was charged to the actor");
            }
            assertEquals(CallStatus.OK, gate.call("slow", PATIENCE).status());
            assertEquals(1, strikes(runtime, "copied"), "the handler's own time is still charged, and the copy adds none");
            assertFalse(actor.isTerminated());
        }
    }

    @Test
    void aStageCompletedLaterIsCopiedInATurnThatEarnsNoStrike() {
        try (ActorRuntime runtime = simulated()) {
            ActorRef actor = runtime.spawn("staged", () -> (context, message) -> { });
            CompletableFuture<SlowToCopy> stage = new CompletableFuture<>();
            CallGate gate = CallGate.open(actor, (context, args) -> {
                copying = context;
                return stage;
            });
            GateCall.spinObserver = call -> {
                runtime.runUntilIdle(Duration.ZERO); // the handler's turn: the stage is pending
                stage.complete(new SlowToCopy(3)); // its completion turn copies the value
                runtime.runUntilIdle(Duration.ZERO);
            };
            CallResult result = gate.call(null, PATIENCE);
            assertEquals(CallStatus.OK, result.status(), result.detail());
            assertEquals(Map.of("value", 3L), result.value());
            assertEquals(0, strikes(runtime, "staged"), "the completion turn's copy was charged to the actor");
        }
    }
}
