package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class TurnFailureTest {

    /** A failure whose message and text themselves throw: describing it must not break the halt. */
    static final class HostileFailure extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage must not be called on the halt path");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString must not be called on the halt path");
        }
    }

    @Test
    void aTurnThatThrowsIsLoggedOnceNamingTheActorItsLaneAndTheExceptionClass() throws Exception {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            HostileFailure failure = new HostileFailure();
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (context, message) -> {
                throw failure;
            });
            synth.tell("boom");
            synth.tell("never handled");
            Thread host = Thread.ofPlatform().start(() -> lane.drive(0));
            host.join();

            assertTrue(synth.isTerminated());
            ExitReason.Failed reason = assertInstanceOf(ExitReason.Failed.class, synth.exitReason().orElseThrow());
            assertSame(failure, reason.cause());
            List<LogRecord> lines = log.matching(Level.WARNING, "synth", "lane(audio)", HostileFailure.class.getName());
            assertEquals(1, lines.size(), "one line per failing actor");
            assertSame(failure, lines.get(0).getThrown());
            assertEquals(ResourceCounts.NONE, runtime.resources(), "the teardown ran to the end");
        }
    }

    @Test
    void aFailingNormalActorIsLoggedWithItsPlacement() {
        try (CapturedLog log = new CapturedLog();
             ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef worker = runtime.spawn("parser", () -> (context, message) -> {
                throw new NumberFormatException();
            });
            worker.tell("x");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1, log.matching(Level.WARNING, "parser", "normal", NumberFormatException.class.getName()).size());
        }
    }
}
