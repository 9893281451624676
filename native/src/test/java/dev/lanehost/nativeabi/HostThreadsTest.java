package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.CloseReport;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.LaneTeardown;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnBudget;
import dev.lanehost.lanes.TurnDisrupted;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Host threads that come and go, driving lanes through the table from real pthreads. */
class HostThreadsTest {
    private static final int OK = CallStatus.OK.code();

    @Test
    void aLaneFollowsItsHostToANewPthreadWhenTheOldOneEndsAndKeepsItsLetters() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("process");
            long handle = abi.exportLane(lane);
            List<String> ranOn = new CopyOnWriteArrayList<>();
            ActorRef synth = runtime.spawnOnLane("process", "synth", () -> (c, m) -> ranOn.add(m + "@" + Thread.currentThread().threadId()));
            TestHost.HostThread first = TestHost.startHostThread(abi.table());
            TestHost.HostThread second = TestHost.startHostThread(abi.table());
            try {
                synth.tell("a");
                assertEquals(OK, first.drive(handle, 0, MemorySegment.NULL));
                long firstId = lane.boundThread().threadId();
                synth.tell("b");
                assertEquals(CallStatus.WRONG_THREAD.code(), second.drive(handle, 0, MemorySegment.NULL),
                        "a live bound thread is never displaced");
                first.close(); // the host restarts its callback thread (JACK does on every deactivate/activate)
                synth.tell("c");
                assertEquals(OK, second.drive(handle, 0, MemorySegment.NULL));
                long secondId = lane.boundThread().threadId();
                assertNotEquals(firstId, secondId);
                assertEquals(List.of("a@" + firstId, "b@" + secondId, "c@" + secondId), ranOn,
                        "letters queued while the first thread held the lane, or after it ended, run on the next");
                assertEquals(1, lane.rebinds());
            } finally {
                first.close();
                second.close();
            }
        }
    }

    @Test
    void theBoundPthreadReleasesTheLaneAndAnotherBindsIt() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("frame");
            long handle = abi.exportLane(lane);
            try (TestHost.HostThread first = TestHost.startHostThread(abi.table());
                 TestHost.HostThread second = TestHost.startHostThread(abi.table())) {
                assertEquals(OK, run(first, TestHost.HostThread.BIND, handle));
                assertEquals(CallStatus.WRONG_THREAD.code(), run(second, TestHost.HostThread.BIND, handle));
                assertEquals(CallStatus.WRONG_THREAD.code(), run(second, TestHost.HostThread.RELEASE, handle),
                        "only the bound thread releases");
                assertEquals(OK, run(first, TestHost.HostThread.RELEASE, handle));
                assertEquals(OK, run(second, TestHost.HostThread.BIND, handle));
                assertEquals(OK, second.drive(handle, 0, MemorySegment.NULL));
                assertEquals(CallStatus.WRONG_THREAD.code(), first.drive(handle, 0, MemorySegment.NULL));
            }
        }
    }

    @Test
    void aRunawayTurnOnAPthreadsLaneIsDisruptedForTheCpuTimeThePthreadSpent() {
        // The budget watch reads the CPU time of the lane's bound thread: here a C pthread attached by its first drive.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(2), Duration.ofMillis(5), 20); // off-CPU cap far past a GC pause
        AtomicReference<String> disruption = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("physics");
            long handle = abi.exportLane(lane);
            ActorRef solver = runtime.spawnOnLane("physics", "solver", SpawnOptions.DEFAULT.withBudget(budget), () -> (context, message) -> {
                try {
                    while (true) {
                        context.checkpoint();
                    }
                } catch (TurnDisrupted disrupted) {
                    disruption.set(disrupted.getMessage());
                    throw disrupted;
                }
            });
            try (TestHost.HostThread host = TestHost.startHostThread(abi.table())) {
                assertEquals(OK, host.drive(handle, 1, MemorySegment.NULL)); // the start
                solver.tell("solve");
                assertEquals(OK, host.drive(handle, 1, MemorySegment.NULL), "the runaway turn ends and the drive returns");
            }
            assertEquals(ExitReason.BUDGET, solver.exitReason().orElseThrow());
            assertTrue(disruption.get().contains("of it on the CPU (the slow budget is 5 ms)"), disruption.get());
        }
    }

    @Test
    void warmUpAttachesAndBindsNothing() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("process");
            long handle = abi.exportLane(lane);
            try (TestHost.HostThread init = TestHost.startHostThread(abi.table());
                 TestHost.HostThread process = TestHost.startHostThread(abi.table())) {
                assertEquals(OK, run(init, TestHost.HostThread.WARM_UP, 0));
                assertEquals(null, lane.boundThread(), "a thread-init hook on another thread binds nothing");
                assertEquals(OK, process.drive(handle, 0, MemorySegment.NULL));
            }
        }
    }

    @Test
    void aHostThatJoinsItsThreadsAfterTheRuntimeClosesDoesNotHang() throws Exception {
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).laneCloseGrace(Duration.ofSeconds(30)).build();
        HostAbi abi = HostAbi.open(runtime);
        ExecutionLane lane = runtime.registerLane("frame");
        long handle = abi.exportLane(lane);
        List<Long> stoppedOn = new CopyOnWriteArrayList<>();
        runtime.spawnOnLane("frame", "scene", () -> new dev.lanehost.lanes.Behavior() {
            @Override
            public void receive(dev.lanehost.lanes.ActorContext context, Object message) {
            }

            @Override
            public void stopped(dev.lanehost.lanes.ActorContext context, dev.lanehost.lanes.ExitReason reason) {
                stoppedOn.add(Thread.currentThread().threadId());
            }
        });
        TestHost.HostThread host = TestHost.startHostThread(abi.table());
        assertEquals(OK, host.drive(handle, 0, MemorySegment.NULL));
        long hostId = lane.boundThread().threadId();
        Future<CloseReport> closing = CompletableFuture.supplyAsync(runtime::closeAndReport);
        // The host keeps calling back, as a frame loop would, until it is told the runtime is gone.
        int status;
        do {
            status = host.drive(handle, 0, MemorySegment.NULL);
        } while (status == OK);
        assertEquals(CallStatus.CLOSED.code(), status);
        CloseReport report = closing.get(60, TimeUnit.SECONDS);
        assertEquals(LaneTeardown.TORN_DOWN_ON_LANE_THREAD, report.lane("frame"));
        assertEquals(List.of(hostId), stoppedOn, "stopped() ran on the host's pthread");
        assertEquals(CallStatus.CLOSED.code(), host.drive(handle, 0, MemorySegment.NULL));
        host.close(); // joins the pthread: returns because nothing holds it
        abi.close();
    }

    @Test
    void aTableDriveThatRunsTurnsAllocatesNothingOnTheHostThread() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("process");
            long handle = abi.exportLane(lane);
            AtomicLong hostThreadId = new AtomicLong();
            ActorRef counter = runtime.spawnOnLane("process", "counter", () -> (c, m) -> hostThreadId.set(Thread.currentThread().threadId()));
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            try (TestHost.HostThread host = TestHost.startHostThread(abi.table())) {
                MemorySegment counts = java.lang.foreign.Arena.ofAuto().allocate(HostAbiDescriptor.DRIVE_COUNTS_SIZE);
                int warmUp = 100_000;
                int measured = 20_000;
                for (int i = 0; i < warmUp + measured; i++) {
                    counter.tell(Boolean.TRUE); // sending allocates a letter, on this thread, not the host's
                }
                assertEquals(warmUp, host.driveRepeat(handle, 1, warmUp)); // the start turn, then letters
                long before = threads.getThreadAllocatedBytes(hostThreadId.get());
                assertEquals(measured, host.driveRepeat(handle, 1, measured));
                long after = threads.getThreadAllocatedBytes(hostThreadId.get());
                assertEquals(OK, host.drive(handle, 1, counts));
                assertEquals(1, counts.get(JAVA_INT, HostAbiDescriptor.DRIVE_COUNTS_TURNS_OFFSET));
                assertTrue(before > 0, "the host thread's allocation is measurable (" + before + ")");
                // Any allocation per drive would be at least one object (16 B) times the drives: 320,000 B. A one-off
                // allocation of the JVM's own (seen: 1,496 B once in ~40 runs on a loaded machine) may land in the
                // window, so the bound is one byte per drive, which no per-drive allocation can stay under.
                assertTrue(after - before < measured, (after - before) + " bytes allocated on the host pthread by "
                        + measured + " drives of one turn each");
            }
        }
    }

    @Test
    void gateCallsFromAHostThreadToACborGateAllocateNothingOnIt() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("process");
            long laneHandle = abi.exportLane(lane);
            AtomicLong hostThreadId = new AtomicLong();
            ActorRef mixer = runtime.spawnOnLane("process", "mixer", () -> (c, m) -> { });
            long gate = abi.exportGate("mixer", dev.lanehost.callgate.CallGate.openCbor(mixer, (context, in, out) -> {
                hostThreadId.set(Thread.currentThread().threadId());
                in.readArray();
                out.writeLong(in.readLong() * 2);
            }));
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            try (TestHost.HostThread host = TestHost.startHostThread(abi.table());
                 java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
                byte[] encoded = new dev.lanehost.callgate.value.PlainCodec().encode(List.of(21, "frame"));
                MemorySegment args = arena.allocate(encoded.length);
                args.copyFrom(MemorySegment.ofArray(encoded));
                MemorySegment result = arena.allocate(16);
                MemorySegment resultLength = arena.allocate(8);
                int warmUp = 100_000;
                int measured = 20_000;
                assertEquals(warmUp, host.runRepeat(TestHost.HostThread.GATE_CALL_ON_LANE, laneHandle, gate, 0, args,
                        encoded.length, result, result.byteSize(), resultLength, 0, warmUp));
                long before = threads.getThreadAllocatedBytes(hostThreadId.get());
                assertEquals(measured, host.runRepeat(TestHost.HostThread.GATE_CALL_ON_LANE, laneHandle, gate, 0, args,
                        encoded.length, result, result.byteSize(), resultLength, 0, measured));
                long after = threads.getThreadAllocatedBytes(hostThreadId.get());
                assertEquals(2, resultLength.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), "42 is two bytes of CBOR");
                assertEquals(42L, new dev.lanehost.callgate.value.PlainCodec().decode(result, 0, 2));
                assertTrue(before > 0, "the host thread's allocation is measurable (" + before + ")");
                // As for drives: any allocation per call would be 16 B times the calls at least; the bound is a byte a call.
                assertTrue(after - before < measured, (after - before) + " bytes allocated on the host pthread by "
                        + measured + " gate calls");
            }
        }
    }

    private static int run(TestHost.HostThread thread, int op, long lane) {
        return thread.run(op, lane, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL);
    }
}
