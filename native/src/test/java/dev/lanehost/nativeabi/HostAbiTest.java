package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.nativeabi.internal.HandleTable;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The host ABI table: its layout against the C compiler's, and each entry's answers. */
class HostAbiTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
    private final HostAbi abi = HostAbi.open(runtime);
    private final HostTable table = new HostTable(abi.table());

    @AfterEach
    void stop() {
        abi.close();
        runtime.close();
    }

    @Test
    void anEntryThatRunsOutOfStackAnswersInternalErrorWithASentenceBuiltBeforehand() throws Throwable {
        assertEquals(CallStatus.INTERNAL_ERROR.code(), EntryAnswers.failed("lane_drive", new StackOverflowError()));
        assertEquals(EntryAnswers.NO_STACK, table.lastError());
        assertTrue(EntryAnswers.NO_STACK.contains("128 KiB"), EntryAnswers.NO_STACK);
    }

    @Test
    void theTableLayoutAgreesWithTheCompilersOffsetsOneByOne() throws IllegalAccessException {
        Map<String, Long> c = LanehostLibrary.apiLayout();
        int compared = 0;
        for (Field field : HostAbiDescriptor.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                assertTrue(c.containsKey(field.getName()), "C's report lacks " + field.getName());
                assertEquals(c.get(field.getName()).longValue(), field.getInt(null), field.getName());
                compared++;
            }
        }
        assertEquals(c.size(), compared, "every entry of C's report has a Java constant: " + c.keySet());
        assertEquals(HostAbiDescriptor.HOST_ABI_VERSION, abi.table().get(JAVA_INT, HostAbiDescriptor.ABI_VERSION_OFFSET));
        assertEquals(HostAbiDescriptor.API_SIZE, abi.table().get(JAVA_INT, HostAbiDescriptor.SIZE_OFFSET));
    }

    @Test
    void statusNumbersAgreeWithTheCHeader() {
        for (CallStatus status : CallStatus.values()) {
            assertEquals(status.name(), LanehostLibrary.statusName(status.code()), status.toString());
        }
        assertNull(LanehostLibrary.statusName(CallStatus.values().length), "C has no status Java lacks");
        assertNull(LanehostLibrary.statusName(-1));
    }

    @Test
    void aLaneDrivenFromAHostPthreadRunsItsTurnsThereAndReportsCounts() throws Throwable {
        ExecutionLane lane = runtime.registerLane("frame");
        long handle = abi.exportLane(lane);
        List<String> threads = new CopyOnWriteArrayList<>();
        ActorRef sprite = runtime.spawnOnLane("frame", "sprite", () -> (c, m) -> threads.add(Thread.currentThread().getName()));
        sprite.tell("a");
        sprite.tell("b");
        sprite.tell("c");
        MemorySegment out = table.allocate(8);
        assertEquals(0, table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "frame", out));
        assertEquals(handle, out.get(JAVA_LONG, 0));
        MemorySegment counts = table.allocate(HostAbiDescriptor.DRIVE_COUNTS_SIZE);
        counts.fill((byte) 0x55);
        try (TestHost.HostThread host = TestHost.startHostThread(abi.table())) {
            assertEquals(0, host.drive(handle, 2, counts)); // the start turn and "a"
            assertEquals(2, counts.get(JAVA_INT, HostAbiDescriptor.DRIVE_COUNTS_TURNS_OFFSET));
            assertEquals(0, counts.get(JAVA_INT, HostAbiDescriptor.DRIVE_COUNTS_RESERVED_OFFSET));
            assertTrue(counts.get(JAVA_LONG, HostAbiDescriptor.DRIVE_COUNTS_REMAINING_OFFSET) > 0, "b and c are left");
            assertEquals(0, host.drive(handle, 0, MemorySegment.NULL), "counts may be NULL");
        }
        assertEquals(List.of("lanehost-lane-frame", "lanehost-lane-frame", "lanehost-lane-frame"), threads);
    }

    /** The README's per-frame event: a lane actor exports a signal in its first turn; the host fires it, then drives. */
    @Test
    void aLaneActorExportsASignalInItsFirstTurnAndEachFiringRunsInTheHostsNextDrive() throws Throwable {
        long laneHandle = abi.exportLane(runtime.registerLane("frame"));
        List<String> ticks = new CopyOnWriteArrayList<>();
        runtime.spawnOnLane("frame", "sprite", () -> new dev.lanehost.lanes.Behavior() {
            @Override
            public void started(dev.lanehost.lanes.ActorContext context) {
                abi.exportSignal("tick", context.signal(SignalMode.MULTISHOT,
                        (c, payload) -> ticks.add(new String(payload) + " on " + Thread.currentThread().getName()), null));
            }

            @Override
            public void receive(dev.lanehost.lanes.ActorContext context, Object message) {
            }
        });
        MemorySegment out = table.allocate(8);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), table.lookup(HostAbiDescriptor.SIGNAL_LOOKUP_OFFSET, "tick", out),
                "not exported before the lane's first drive runs the actor's start");
        var fire = table.entry(HostAbiDescriptor.SIGNAL_FIRE_OFFSET, HostAbiDescriptor.SIGNAL_FIRE);
        MemorySegment counts = table.allocate(HostAbiDescriptor.DRIVE_COUNTS_SIZE);
        try (TestHost.HostThread host = TestHost.startHostThread(abi.table())) {
            assertEquals(0, host.drive(laneHandle, 0, counts)); // the start turn, which exports the signal
            assertEquals(0, table.lookup(HostAbiDescriptor.SIGNAL_LOOKUP_OFFSET, "tick", out));
            long signal = out.get(JAVA_LONG, 0);
            for (String frame : List.of("f1", "f2")) {
                assertEquals(0, (int) fire.invokeExact(signal, table.cString(frame), 2L));
                assertEquals(0, host.drive(laneHandle, 0, counts));
                assertEquals(1, counts.get(JAVA_INT, HostAbiDescriptor.DRIVE_COUNTS_TURNS_OFFSET), frame);
            }
        }
        assertEquals(List.of("f1 on lanehost-lane-frame", "f2 on lanehost-lane-frame"), ticks);
    }

    @Test
    void badLaneArgumentsAreInvalidWithALastErrorThatSaysWhy() throws Throwable {
        abi.exportLane(runtime.registerLane("frame"));
        MemorySegment out = table.allocate(8);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "nope", out));
        assertTrue(table.lastError().contains("no lane named 'nope'"), table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "", out));
        assertTrue(table.lastError().contains("an export's name is never empty"), table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) table.entry(HostAbiDescriptor.LANE_LOOKUP_OFFSET,
                HostAbiDescriptor.LANE_LOOKUP).invokeExact(0L, out.address()));
        assertTrue(table.lastError().contains("the name is NULL"), table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "x".repeat(300), out));
        assertTrue(table.lastError().contains("longer than 256"), table.lastError());
        var drive = table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) drive.invokeExact(0x1000_0000_0000_0005L, 0, 0L));
        assertTrue(table.lastError().startsWith("INVALID_ARGUMENT: lane handle 0x1000000000000005 "), table.lastError());
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) drive.invokeExact(0L, 0, 0L));
        assertEquals(0, table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "frame", out));
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) drive.invokeExact(out.get(JAVA_LONG, 0), -1, 0L));
        assertTrue(table.lastError().contains("max_turns"), table.lastError());
    }

    @Test
    void releasingAnUnboundLaneAndReleasingOrDrivingFromAnotherThreadEachSayWhatIsWrong() throws Throwable {
        long handle = abi.exportLane(runtime.registerLane("idle"));
        var bind = table.entry(HostAbiDescriptor.LANE_BIND_OFFSET, HostAbiDescriptor.LANE_BIND);
        var release = table.entry(HostAbiDescriptor.LANE_RELEASE_OFFSET, HostAbiDescriptor.LANE_RELEASE);
        assertEquals(CallStatus.WRONG_THREAD.code(), (int) release.invokeExact(handle), "never bound");
        assertEquals("WRONG_THREAD: lane 'idle' is not bound to any thread (never driven or bound, or released already):"
                + " there is nothing to release", table.lastError());
        var binder = java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "binder"));
        try {
            assertEquals(0, binder.submit(entryCall(bind, handle)).get(30, TimeUnit.SECONDS));
            assertEquals(CallStatus.WRONG_THREAD.code(), (int) release.invokeExact(handle), "bound to the binder");
            assertEquals("WRONG_THREAD: lane 'idle' is bound to thread binder, not to the calling thread "
                    + Thread.currentThread().getName() + ": only its bound thread may release it", table.lastError());
            var drive = table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE);
            assertEquals(CallStatus.WRONG_THREAD.code(), (int) drive.invokeExact(handle, 0, 0L), "driven from another thread");
            assertEquals("WRONG_THREAD: lane 'idle' is bound to thread binder, not to the calling thread "
                    + Thread.currentThread().getName(), table.lastError());
            assertEquals(0, binder.submit(entryCall(release, handle)).get(30, TimeUnit.SECONDS));
            assertEquals(CallStatus.WRONG_THREAD.code(), binder.submit(entryCall(release, handle))
                    .get(30, TimeUnit.SECONDS), "released already");
            String error = binder.submit(() -> {
                try {
                    return table.lastError();
                } catch (Throwable t) {
                    throw new Exception(t);
                }
            }).get(30, TimeUnit.SECONDS);
            assertTrue(error.contains("is not bound to any thread"), error);
        } finally {
            binder.shutdownNow();
        }
    }

    /** A lane entry taking one handle, called on whichever thread runs the result. */
    private static java.util.concurrent.Callable<Integer> entryCall(java.lang.invoke.MethodHandle entry, long handle) {
        return () -> {
            try {
                return (int) entry.invokeExact(handle);
            } catch (Throwable t) {
                throw new Exception(t);
            }
        };
    }

    /** The sizing call (NULL result, capacity 0) runs the handler and says the size; maxResultBytes binds C callers too. */
    @Test
    void aSizingCallRunsTheHandlerAndTheGatesResultLimitBindsCCallers() throws Throwable {
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        ActorRef actor = runtime.spawn("texts", () -> (c, m) -> { });
        dev.lanehost.callgate.CallHandler hundredBytes = (c, a) -> {
            ran.incrementAndGet();
            return "y".repeat(100);
        };
        long small = abi.exportGate("small", CallGate.open(actor, hundredBytes, 8, 16));
        long roomy = abi.exportGate("roomy", CallGate.open(actor, hundredBytes));
        var call = table.entry(HostAbiDescriptor.GATE_CALL_OFFSET, HostAbiDescriptor.GATE_CALL);
        MemorySegment result = table.allocate(4096);
        MemorySegment length = table.allocate(8);
        long timeout = TimeUnit.SECONDS.toNanos(30);
        assertEquals(CallStatus.OUT_OF_MEMORY.code(), (int) call.invokeExact(roomy, 0L, 0L, 0L, 0L, length.address(), timeout),
                "the sizing call");
        assertEquals(102, length.get(JAVA_LONG, 0), "a 100-byte text and its two-byte head");
        assertEquals(1, ran.get(), "the handler ran");
        assertEquals(0, (int) call.invokeExact(roomy, 0L, 0L, result.address(), 4096L, length.address(), timeout));
        assertEquals(2, ran.get(), "and runs again for the real call");
        assertEquals(CallStatus.OUT_OF_MEMORY.code(), (int) call.invokeExact(small, 0L, 0L, result.address(), 4096L,
                length.address(), timeout), "past the gate's 16-byte limit, though the buffer has room");
        assertEquals(0, length.get(JAVA_LONG, 0), "no buffer would take it");
        assertTrue(table.lastError().contains("more than the gate's limit of 16"), table.lastError());
    }

    @Test
    void aThreadThatCalledTheGatesOfStoppedRuntimesKeepsNoneOfThemReachable() throws Throwable {
        // A table outlives its runtime (its entries still answer CLOSED after a stop), so whatever a table keeps per
        // calling thread would keep each stopped runtime reachable from a host thread that called its gates.
        List<java.lang.ref.WeakReference<ActorRuntime>> stopped = new java.util.ArrayList<>();
        for (int start = 0; start < 4; start++) {
            ActorRuntime each = ActorRuntime.create(Profile.HOSTED);
            HostAbi eachAbi = HostAbi.open(each);
            HostTable eachTable = new HostTable(eachAbi.table());
            long gate = eachAbi.exportGate("g", CallGate.open(each.spawn("a", () -> (c, m) -> { }), (c, a) -> 1));
            var call = eachTable.entry(HostAbiDescriptor.GATE_CALL_OFFSET, HostAbiDescriptor.GATE_CALL);
            MemorySegment result = eachTable.allocate(64);
            MemorySegment length = eachTable.allocate(8);
            assertEquals(0, (int) call.invokeExact(gate, 0L, 0L, result.address(), 64L, length.address(),
                    TimeUnit.SECONDS.toNanos(30)));
            eachAbi.close();
            each.close();
            stopped.add(new java.lang.ref.WeakReference<>(each));
        }
        // The reply this thread keeps lets go of a call once its runtime is done with it, and is replaced at the next
        // call otherwise: every runtime but the last is unreachable, and the last one too once its worker has left.
        for (int gc = 0; gc < 10 && stopped.subList(0, 3).stream().anyMatch(r -> r.get() != null); gc++) {
            System.gc();
        }
        for (int start = 0; start < 3; start++) {
            assertTrue(stopped.get(start).get() == null, "runtime " + start + " is still reachable");
        }
    }

    @Test
    void aHandleOfAnotherKindOrGenerationNeverReachesAnObject() throws Throwable {
        ExecutionLane lane = runtime.registerLane("frame");
        long laneHandle = abi.exportLane(lane);
        long gateHandle = abi.exportGate("g", CallGate.open(runtime.spawn("a", () -> (c, m) -> { }), (c, a) -> a));
        var drive = table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE);
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) drive.invokeExact(gateHandle, 0, 0L), "a gate handle");
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) drive.invokeExact(laneHandle + (1L << (HandleTable.CHECK_BITS + HandleTable.SLOT_BITS)), 0, 0L), "next generation");
        assertNotEquals(0, laneHandle);
    }

    @Test
    void closedGatesLeaveTheTableAndAreNotKeptReachable() throws Exception {
        ActorRef actor = runtime.spawn("target", () -> (c, m) -> { });
        for (int i = 0; i < 100_000; i++) {
            CallGate gate = CallGate.open(actor, (c, a) -> a);
            abi.exportGate("cycle", gate);
            gate.close();
        }
        assertEquals(0, abi.liveHandles().get("gate"));
        CallGate last = CallGate.open(runtime.spawn("last", () -> (c, m) -> { }), (c, a) -> a);
        abi.exportGate("last", last);
        WeakReference<CallGate> gone = new WeakReference<>(last);
        last.close();
        last = null;
        awaitTrue(() -> {
            System.gc();
            return gone.get() == null;
        });
    }

    @Test
    void aRingStaysMappedWhileAHostHoldsAReference() throws Throwable {
        HostRing ring = abi.exportRing("capture", 4096);
        MemorySegment ref = table.allocate(8);
        MemorySegment memory = table.allocate(8);
        MemorySegment length = table.allocate(8);
        var lookup = table.entry(HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
        var release = table.entry(HostAbiDescriptor.RING_RELEASE_OFFSET, HostAbiDescriptor.RING_RELEASE);
        assertEquals(0, (int) lookup.invokeExact(table.cString("capture"), ref.address(), memory.address(), length.address()));
        assertEquals(ring.ring().memory().address(), memory.get(JAVA_LONG, 0));
        assertEquals(ring.ring().memory().byteSize(), length.get(JAVA_LONG, 0));
        assertEquals(1, ring.hostReferences());
        ring.close();
        assertTrue(ring.isMemoryLive(), "a host reference keeps the memory");
        assertEquals(CallStatus.CLOSED.code(), (int) lookup.invokeExact(table.cString("capture"), ref.address(),
                memory.address(), length.address()), "closed by Java: no new references");
        assertTrue(table.lastError().contains("the ring named 'capture' was closed by its Java owner"), table.lastError());
        assertEquals(0, (int) release.invokeExact(ref.get(JAVA_LONG, 0)));
        assertFalse(ring.isMemoryLive(), "the last holder let go");
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), (int) release.invokeExact(ref.get(JAVA_LONG, 0)), "released twice");
        assertTrue(table.lastError().contains("was released already"), table.lastError());
    }

    @Test
    void aSignalFiredThroughTheTableDeliversItsPayloadAndAOneShotThenAnswersClosed() throws Throwable {
        CompletableFuture<Signal> created = new CompletableFuture<>();
        CountDownLatch fired = new CountDownLatch(1);
        List<String> payloads = new CopyOnWriteArrayList<>();
        runtime.spawn("listener", () -> new dev.lanehost.lanes.Behavior() {
            @Override
            public void started(dev.lanehost.lanes.ActorContext context) {
                created.complete(context.signal(SignalMode.ONE_SHOT, (c, payload) -> {
                    payloads.add(new String(payload));
                    fired.countDown();
                }, null));
            }

            @Override
            public void receive(dev.lanehost.lanes.ActorContext context, Object message) {
            }
        });
        long handle = abi.exportSignal("ready", created.get(30, TimeUnit.SECONDS));
        var fire = table.entry(HostAbiDescriptor.SIGNAL_FIRE_OFFSET, HostAbiDescriptor.SIGNAL_FIRE);
        long payload = table.cString("go");
        assertEquals(0, (int) fire.invokeExact(handle, payload, 2L));
        assertTrue(fired.await(30, TimeUnit.SECONDS));
        assertEquals(List.of("go"), payloads);
        assertEquals(CallStatus.CLOSED.code(), (int) fire.invokeExact(handle, payload, 2L), "the fired one-shot left the table");
        assertTrue(table.lastError().contains("can fire no more"), table.lastError());
        assertEquals(CallStatus.CLOSED.code(), (int) fire.invokeExact(handle, 0L, 2L));
    }

    @Test
    void aSignalNameWhoseActorHaltedMayBeExportedAgainAndItsOldHandleAnswersClosed() throws Throwable {
        java.util.concurrent.CompletableFuture<dev.lanehost.lanes.Signal> first = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<dev.lanehost.lanes.Signal> second = new java.util.concurrent.CompletableFuture<>();
        dev.lanehost.lanes.ActorRef old = runtime.spawn("old", () -> (context, message) ->
                first.complete(context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null)));
        old.tell("make");
        long oldHandle = abi.exportSignal("tick", first.get(30, TimeUnit.SECONDS));
        assertThrows(IllegalArgumentException.class, () -> abi.exportSignal("tick", first.join()), "a live signal keeps its name");
        CountDownLatch gone = new CountDownLatch(1);
        runtime.spawn("watcher", () -> new dev.lanehost.lanes.Behavior() {
            @Override
            public void started(dev.lanehost.lanes.ActorContext context) {
                context.monitor(old);
            }

            @Override
            public void receive(dev.lanehost.lanes.ActorContext context, Object message) {
                gone.countDown();
            }
        });
        assertTrue(old.kill());
        assertTrue(gone.await(30, TimeUnit.SECONDS));
        runtime.spawn("fresh", () -> (context, message) ->
                second.complete(context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null))).tell("make");
        long newHandle = abi.exportSignal("tick", second.get(30, TimeUnit.SECONDS)); // as a restarted actor's start does
        MemorySegment out = table.allocate(8);
        assertEquals(0, table.lookup(HostAbiDescriptor.SIGNAL_LOOKUP_OFFSET, "tick", out));
        assertEquals(newHandle, out.get(JAVA_LONG, 0), "the name now reaches the new signal");
        var fire = table.entry(HostAbiDescriptor.SIGNAL_FIRE_OFFSET, HostAbiDescriptor.SIGNAL_FIRE);
        assertEquals(CallStatus.CLOSED.code(), (int) fire.invokeExact(oldHandle, 0L, 0L), "the old handle is its halted actor's");
        assertEquals(0, (int) fire.invokeExact(newHandle, 0L, 0L));
    }

    @Test
    void aGateNameWhoseActorHaltedMayBeExportedAgainAsARestartsSuccessorDoes() throws Throwable {
        ActorRef old = runtime.spawn("old", () -> (context, message) -> { });
        abi.exportGate("score", CallGate.open(old, (context, args) -> 1L));
        ActorRef live = runtime.spawn("live", () -> (context, message) -> { });
        assertThrows(IllegalArgumentException.class, () -> abi.exportGate("score", CallGate.open(live, (context, args) -> 2L)),
                "a live actor's gate keeps its name");
        assertTrue(old.kill());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (old.exitReason().isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        long handle = abi.exportGate("score", CallGate.open(live, (context, args) -> 2L));
        MemorySegment out = table.allocate(8);
        assertEquals(0, table.lookup(HostAbiDescriptor.GATE_LOOKUP_OFFSET, "score", out));
        assertEquals(handle, out.get(JAVA_LONG, 0), "the name now reaches the successor's gate");
    }

    @Test
    void afterCloseEveryEntryAnswersClosedAndExportsAreRefused() throws Throwable {
        long lane = abi.exportLane(runtime.registerLane("frame"));
        abi.close();
        var drive = table.entry(HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE);
        assertEquals(CallStatus.OK.code(), (int) drive.invokeExact(lane, 0, 0L), "a lane follows its runtime, still open");
        assertEquals(CallStatus.CLOSED.code(), table.lookup(HostAbiDescriptor.LANE_LOOKUP_OFFSET, "frame", table.allocate(8)));
        assertEquals(CallStatus.CLOSED.code(), (int) table.entry(HostAbiDescriptor.THREAD_WARM_UP_OFFSET,
                HostAbiDescriptor.THREAD_WARM_UP).invokeExact());
        assertTrue(table.lastError().startsWith("CLOSED"), table.lastError());
        assertThrows(IllegalStateException.class, () -> abi.exportLane(runtime.registerLane("late")));
        assertEquals(Map.of("lane", 1, "gate", 0, "signal", 0, "ring reference", 0), abi.liveHandles());
        runtime.close();
        assertEquals(CallStatus.CLOSED.code(), (int) drive.invokeExact(lane, 0, 0L));
        assertEquals(Map.of("lane", 0, "gate", 0, "signal", 0, "ring reference", 0), abi.liveHandles());
    }

    @Test
    void exportNamesAreUniquePerKindAndChecked() {
        abi.exportLane(runtime.registerLane("frame"));
        CallGate gate = CallGate.open(runtime.spawn("a", () -> (c, m) -> { }), (c, a) -> a);
        abi.exportGate("frame", gate); // another kind: fine
        assertThrows(IllegalArgumentException.class, () -> abi.exportGate("frame", gate));
        assertThrows(IllegalArgumentException.class, () -> abi.exportGate("", gate));
        assertThrows(IllegalArgumentException.class, () -> abi.exportGate("n".repeat(257), gate));
        assertThrows(IllegalArgumentException.class, () -> abi.exportRing("r", 100), "not a power of two");
    }

    static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 30 s");
            }
            Thread.onSpinWait();
        }
    }
}
