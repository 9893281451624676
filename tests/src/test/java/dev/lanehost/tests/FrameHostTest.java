package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.samples.FrameHost;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The C frame host ({@code samples/src/main/c/frame_host.c}) against a HOSTED runtime, through the host ABI
 * table only: a 120 Hz pthread loop drives the lane "frame" with a turn bound while a second pthread sends CBOR
 * input events through the gate "input" to a game-state actor on that lane.
 */
class FrameHostTest {
    private static final int MAX_TURNS = 4;
    private static final int EVENTS = 60;
    /** Queued before the host starts, so the first frames all meet the turn bound. */
    private static final int TICKS = 200;

    @Test
    void everyInputEventReachesTheGameStateOnceInOrderAndEveryTurnRunsOnTheFramePthreadWithinTheBound() {
        List<Long> events = new CopyOnWriteArrayList<>();
        Set<Long> turnThreadIds = ConcurrentHashMap.newKeySet();
        Set<Thread> turnThreads = ConcurrentHashMap.newKeySet();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("frame");
            abi.exportLane(lane);
            ActorRef state = runtime.spawnOnLane("frame", "game-state", () -> (context, tick) -> {
                turnThreadIds.add(KernelThreadId.current());
                turnThreads.add(Thread.currentThread());
            });
            abi.exportGate("input", CallGate.open(state, (context, event) -> {
                turnThreadIds.add(KernelThreadId.current());
                turnThreads.add(Thread.currentThread());
                long seq = (Long) ((Map<?, ?>) event).get("seq");
                events.add(seq);
                return seq;
            }));
            for (int i = 0; i < TICKS; i++) {
                state.tell("tick");
            }

            FrameHost.Run run;
            try (FrameHost host = FrameHost.start(abi.table(), "frame", "input",
                    new FrameHost.Settings(120, MAX_TURNS, 120, 1200, EVENTS, Duration.ofSeconds(30)))) {
                run = host.join();
            }

            assertEquals(0, run.frameWarmUpStatus(), "thread_warm_up on the frame thread");
            assertEquals(0, run.inputWarmUpStatus(), "thread_warm_up on the input thread");
            assertEquals(0, run.firstFailureStatus(), "first failed input event: " + FrameHost.Run.statusName(run.firstFailureStatus())
                    + " at event " + run.firstFailureEvent());
            assertEquals(EVENTS, run.eventsSent());
            assertEquals(EVENTS, run.eventsOk(), "every call answered OK with its own sequence number");
            assertEquals(LongStream.range(0, EVENTS).boxed().toList(), events, "each event once, in the order sent");

            assertTrue(run.frames().size() >= 120, "at least the frames asked for: " + run.frames().size());
            int turns = 0;
            for (int i = 0; i < run.frames().size(); i++) {
                FrameHost.Frame frame = run.frames().get(i);
                assertEquals(0, frame.status(), "frame " + i + "'s drive: " + FrameHost.Run.statusName(frame.status()));
                assertTrue(frame.turns() >= 0 && frame.turns() <= MAX_TURNS, "frame " + i + " ran " + frame.turns() + " turns");
                turns += frame.turns();
            }
            assertEquals(MAX_TURNS, run.frames().getFirst().turns(), "the first frame found more work than its bound");
            assertEquals(1 + TICKS + EVENTS, turns, "the start turn, every tick and every event, each in some frame");
            assertEquals(turns, lane.turns(), "the lane counted the same turns");

            assertEquals(Set.of(run.frameThreadId()), turnThreadIds, "every turn ran on the frame pthread");
            assertNotEquals(run.frameThreadId(), run.inputThreadId());
            assertEquals(1, turnThreads.size());
            assertSame(lane.boundThread(), turnThreads.iterator().next(), "the lane is bound to the frame pthread's Thread");
        }
    }
}
