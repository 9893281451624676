package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.testhost.TestHost.HostThread;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The table's binding entries ({@code lane_bind}, {@code lane_release}, {@code thread_warm_up}) and rebinding
 * after a host thread ends, from pthreads of the C test host, the way a host that restarts its callback thread
 * uses them.
 */
class LaneBindingFromCTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
    private final HostAbi abi = HostAbi.open(runtime);
    private final ExecutionLane lane = runtime.registerLane("audio");
    private final long handle = abi.exportLane(lane);

    @AfterEach
    void stop() {
        abi.close();
        runtime.close();
    }

    private static CallStatus run(HostThread thread, int op, long lane) {
        return CallStatus.ofCode(thread.run(op, lane, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0,
                MemorySegment.NULL));
    }

    @Test
    void bindHoldsTheLaneForItsThreadUntilThatThreadReleasesIt() {
        try (HostThread first = TestHost.startHostThread(abi.table());
             HostThread second = TestHost.startHostThread(abi.table())) {
            assertEquals(CallStatus.OK, run(first, HostThread.BIND, handle));
            assertEquals(CallStatus.OK, run(first, HostThread.BIND, handle), "binding again from the bound thread");
            assertEquals(CallStatus.WRONG_THREAD, CallStatus.ofCode(second.drive(handle, 0, MemorySegment.NULL)),
                    "a live bound thread is never displaced");
            assertEquals(CallStatus.WRONG_THREAD, run(second, HostThread.RELEASE, handle), "only the bound thread releases");
            assertEquals(CallStatus.OK, run(first, HostThread.RELEASE, handle));
            assertEquals(CallStatus.OK, CallStatus.ofCode(second.drive(handle, 0, MemorySegment.NULL)), "released: the next driver binds");
            assertEquals(CallStatus.WRONG_THREAD, run(first, HostThread.BIND, handle));
        }
    }

    @Test
    void aLaneWhoseHostThreadEndedRebindsToTheNextDriverWithItsQueuedLetters() {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        var actor = runtime.spawnOnLane("audio", "synth", () -> (context, message) -> threads.add(Thread.currentThread()));
        actor.tell("handled by the first host thread");
        try (HostThread first = TestHost.startHostThread(abi.table())) {
            assertEquals(CallStatus.OK, CallStatus.ofCode(first.drive(handle, 0, MemorySegment.NULL)));
        } // the pthread exits: the JVM detaches it and its Thread ends
        actor.tell("queued while no host thread was alive");
        try (HostThread second = TestHost.startHostThread(abi.table())) {
            assertEquals(CallStatus.OK, CallStatus.ofCode(second.drive(handle, 0, MemorySegment.NULL)));
            assertEquals(2, threads.size(), "one letter on each thread");
            assertTrue(threads.get(0) != threads.get(1), "the letter ran on the new thread");
            assertEquals(threads.get(1), lane.boundThread());
            assertEquals(1, lane.rebinds());
        }
    }

    @Test
    void warmUpAnswersOkAndBindsNothing() {
        try (HostThread host = TestHost.startHostThread(abi.table())) {
            assertEquals(CallStatus.OK, run(host, HostThread.WARM_UP, 0));
            assertEquals(CallStatus.OK, run(host, HostThread.WARM_UP, 0), "again, on a warm thread");
            assertNull(lane.boundThread());
        }
    }
}
