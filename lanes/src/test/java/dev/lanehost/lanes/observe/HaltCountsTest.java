package dev.lanehost.lanes.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.RuntimeMetrics;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link RuntimeMetrics#halts(Class)} and {@link RuntimeMetrics#haltsByReason()}: torn-down actors by exit reason. */
class HaltCountsTest {

    @Test
    void eachTeardownIsCountedUnderItsReasonsKind() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef stopper = runtime.spawn("stopper", () -> (context, message) -> context.stop());
            ActorRef failing = runtime.spawn("failing", () -> (context, message) -> {
                throw new IllegalStateException("boom");
            });
            ActorRef killed = runtime.spawn("killed", () -> (context, message) -> { });
            runtime.spawn("alive", () -> (context, message) -> { });
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(4, runtime.metrics().liveActors());
            stopper.tell("stop");
            failing.tell("fail");
            killed.kill();
            runtime.runUntilIdle(Duration.ZERO);
            RuntimeMetrics metrics = runtime.metrics();
            assertEquals(1, metrics.halts(ExitReason.Normal.class));
            assertEquals(1, metrics.halts(ExitReason.Failed.class));
            assertEquals(1, metrics.halts(ExitReason.Killed.class));
            assertEquals(0, metrics.halts(ExitReason.Budget.class));
            assertEquals(1, metrics.liveActors());
            assertEquals(Map.of("Normal", 1L, "Failed", 1L, "Killed", 1L, "Budget", 0L, "Reaped", 0L, "Shutdown", 0L, "Linked", 0L),
                    metrics.haltsByReason());
            runtime.close();
            assertEquals(1, metrics.halts(ExitReason.Shutdown.class), "the close tore the last one down");
            assertEquals(0, metrics.liveActors());
        }
    }

    @Test
    void everyKindOfExitReasonHasACounter() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<String> kinds = Arrays.stream(ExitReason.class.getPermittedSubclasses()).map(Class::getSimpleName).toList();
            assertEquals(kinds, List.copyOf(runtime.metrics().haltsByReason().keySet()), "declaration order, no kind missing");
        }
    }

    @Test
    void askingForAKindThatIsNoExitReasonRecordIsAClearError() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> runtime.metrics().halts(ExitReason.class));
            assertTrue(error.getMessage().contains("no exit reason of kind dev.lanehost.lanes.ExitReason"), error.getMessage());
            assertThrows(NullPointerException.class, () -> runtime.metrics().halts(null));
        }
    }
}
