package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalMode;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * After the runtime or the host ABI closes, every entry that reaches the runtime answers {@code LANEHOST_CLOSED}
 * with a last-error sentence, even with handles and names that were valid before: a host thread that calls
 * late learns why. Lane handles follow their runtime rather than the host ABI, so a host still calling back
 * runs its lane's teardown whichever of the two closes first.
 */
class HostAbiClosedTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void everyEntryAnswersClosedOnceTheRuntimeCloses() throws Exception {
        everyEntryAnswersClosedAfter(exported -> exported.runtime.close(), true);
    }

    @Test
    void everyEntryButTheLanesAnswersClosedOnceTheHostAbiCloses() throws Exception {
        everyEntryAnswersClosedAfter(exported -> exported.abi.close(), false); // lanes: the next test
    }

    @Test
    void laneHandlesFollowTheirRuntimeAfterTheHostAbiCloses() throws Throwable {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            long lane = abi.exportLane(runtime.registerLane("frame"));
            Table table = new Table(abi.table());
            abi.close();
            assertEquals(CallStatus.OK.code(), (int) table.laneDrive.invokeExact(lane, 0, 0L), "the runtime still runs");
            assertEquals(CallStatus.OK.code(), (int) table.laneRelease.invokeExact(lane));
            assertEquals(CallStatus.OK.code(), (int) table.laneBind.invokeExact(lane));
            runtime.close();
            assertEquals(CallStatus.CLOSED.code(), (int) table.laneDrive.invokeExact(lane, 0, 0L));
            assertEquals(CallStatus.CLOSED.code(), (int) table.laneBind.invokeExact(lane));
            assertEquals(Map.of("lane", 0, "gate", 0, "signal", 0, "ring reference", 0), abi.liveHandles(),
                    "both closed: nothing of the runtime is held");
        }
    }

    @Test
    void lookupsRacingTheHostAbisCloseAnswerOkOrClosedNeverNotExported() throws Throwable {
        // A close marks the host ABI closed, then lets go of the names: a lookup that passed the closed check just
        // before found no name, and said the host had asked for one never exported (INVALID_ARGUMENT).
        for (int attempt = 0; attempt < 200; attempt++) {
            try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime);
                 HostRing ring = abi.exportRing("samples", 4096)) {
                abi.exportLane(runtime.registerLane("frame"));
                abi.exportGate("echo", CallGate.open(runtime.spawn("echo", () -> (c, m) -> { }), (c, args) -> args));
                Table table = new Table(abi.table());
                List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
                java.util.concurrent.CountDownLatch looking = new java.util.concurrent.CountDownLatch(1);
                Thread looker = Thread.ofPlatform().start(() -> {
                    try (Arena arena = Arena.ofConfined()) {
                        long frame = name(arena, "frame");
                        long echo = name(arena, "echo");
                        long samples = name(arena, "samples");
                        long at = arena.allocate(JAVA_LONG, 3).address();
                        for (int status = 0; status == 0; ) {
                            looking.countDown();
                            for (int[] each : new int[][] {
                                    {(int) table.laneLookup.invokeExact(frame, at)},
                                    {(int) table.gateLookup.invokeExact(echo, at)},
                                    {(int) table.ringLookup.invokeExact(samples, at, at + 8, at + 16)}}) {
                                if (each[0] == CallStatus.OK.code()) {
                                    continue;
                                }
                                status = each[0];
                                if (status != CallStatus.CLOSED.code()) {
                                    wrong.add(CallStatus.ofCode(status).toString());
                                }
                            }
                        }
                    } catch (Throwable e) {
                        wrong.add(e.toString());
                    }
                });
                looking.await();
                abi.close();
                looker.join();
                assertEquals(List.of(), wrong, "attempt " + attempt);
            }
        }
    }

    /** A runtime whose host ABI exports one of each: the handles were looked up while it was open. */
    private record Exported(ActorRuntime runtime, HostAbi abi, long lane, long gate, long signal) {
    }

    private void everyEntryAnswersClosedAfter(Consumer<Exported> closing, boolean lanesToo) throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             Arena arena = Arena.ofConfined()) {
            long lane = abi.exportLane(runtime.registerLane("frame"));
            long gate = abi.exportGate("echo", CallGate.open(runtime.spawn("echo", () -> (c, m) -> { }), (c, args) -> args));
            long signal = abi.exportSignal("bell", multishotSignal(runtime));
            abi.exportRing("samples", 4096);
            closing.accept(new Exported(runtime, abi, lane, gate, signal));

            Table table = new Table(abi.table());
            MemorySegment out = arena.allocate(JAVA_LONG, 4);
            MemorySegment args = arena.allocate(1);
            args.set(JAVA_BYTE, 0, (byte) 0x01); // CBOR 1
            MemorySegment result = arena.allocate(64);
            long at = out.address();
            List<Executable> checks = new ArrayList<>(List.of(
                    closed(table, "lane_lookup", () -> (int) table.laneLookup.invokeExact(name(arena, "frame"), at)),
                    closed(table, "thread_warm_up", () -> (int) table.threadWarmUp.invokeExact()),
                    closed(table, "gate_lookup", () -> (int) table.gateLookup.invokeExact(name(arena, "echo"), at)),
                    closed(table, "gate_call", () -> (int) table.gateCall.invokeExact(gate, args.address(), 1L,
                            result.address(), result.byteSize(), at, SECOND)),
                    closed(table, "gate_call_on_lane", () -> (int) table.gateCallOnLane.invokeExact(gate, lane, args.address(),
                            1L, result.address(), result.byteSize(), at, 0)),
                    closed(table, "signal_lookup", () -> (int) table.signalLookup.invokeExact(name(arena, "bell"), at)),
                    closed(table, "signal_fire", () -> (int) table.signalFire.invokeExact(signal, 0L, 0L)),
                    closed(table, "ring_lookup", () -> (int) table.ringLookup.invokeExact(name(arena, "samples"), at,
                            at + 8, at + 16))));
            if (lanesToo) {
                checks.add(closed(table, "lane_drive", () -> (int) table.laneDrive.invokeExact(lane, 0, 0L)));
                checks.add(closed(table, "lane_bind", () -> (int) table.laneBind.invokeExact(lane)));
                checks.add(closed(table, "lane_release", () -> (int) table.laneRelease.invokeExact(lane)));
            }
            assertAll(checks);
        }
    }

    private static long name(Arena arena, String name) {
        return arena.allocateFrom(name, StandardCharsets.UTF_8).address();
    }

    /** The entry answers CLOSED and last_error says why. */
    private static Executable closed(Table table, String entry, ThrowingIntSupplier call) {
        return () -> {
            int status = call.getAsInt();
            assertEquals(CallStatus.CLOSED, CallStatus.ofCode(status), entry);
            String error = table.lastError();
            assertTrue(error.startsWith("CLOSED: "), entry + "'s last error: " + error);
        };
    }

    @FunctionalInterface
    private interface ThrowingIntSupplier {
        int getAsInt() throws Throwable;
    }

    private static Signal multishotSignal(ActorRuntime runtime) throws Exception {
        CompletableFuture<Signal> made = new CompletableFuture<>();
        runtime.spawn("bell-owner", () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                made.complete(context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null));
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
        return made.get(30, TimeUnit.SECONDS);
    }

    /** The table's members as downcalls, so this (Java) thread calls them the way a host thread would. */
    private static final class Table {
        final MethodHandle laneLookup;
        final MethodHandle laneDrive;
        final MethodHandle laneBind;
        final MethodHandle laneRelease;
        final MethodHandle threadWarmUp;
        final MethodHandle gateLookup;
        final MethodHandle gateCall;
        final MethodHandle gateCallOnLane;
        final MethodHandle signalLookup;
        final MethodHandle signalFire;
        final MethodHandle ringLookup;
        private final MethodHandle lastError;

        Table(MemorySegment table) {
            laneLookup = member(table, HostAbiDescriptor.LANE_LOOKUP_OFFSET, HostAbiDescriptor.LANE_LOOKUP);
            laneDrive = member(table, HostAbiDescriptor.LANE_DRIVE_OFFSET, HostAbiDescriptor.LANE_DRIVE);
            laneBind = member(table, HostAbiDescriptor.LANE_BIND_OFFSET, HostAbiDescriptor.LANE_BIND);
            laneRelease = member(table, HostAbiDescriptor.LANE_RELEASE_OFFSET, HostAbiDescriptor.LANE_RELEASE);
            threadWarmUp = member(table, HostAbiDescriptor.THREAD_WARM_UP_OFFSET, HostAbiDescriptor.THREAD_WARM_UP);
            gateLookup = member(table, HostAbiDescriptor.GATE_LOOKUP_OFFSET, HostAbiDescriptor.GATE_LOOKUP);
            gateCall = member(table, HostAbiDescriptor.GATE_CALL_OFFSET, HostAbiDescriptor.GATE_CALL);
            gateCallOnLane = member(table, HostAbiDescriptor.GATE_CALL_ON_LANE_OFFSET, HostAbiDescriptor.GATE_CALL_ON_LANE);
            signalLookup = member(table, HostAbiDescriptor.SIGNAL_LOOKUP_OFFSET, HostAbiDescriptor.SIGNAL_LOOKUP);
            signalFire = member(table, HostAbiDescriptor.SIGNAL_FIRE_OFFSET, HostAbiDescriptor.SIGNAL_FIRE);
            ringLookup = member(table, HostAbiDescriptor.RING_LOOKUP_OFFSET, HostAbiDescriptor.RING_LOOKUP);
            lastError = member(table, HostAbiDescriptor.LAST_ERROR_OFFSET, HostAbiDescriptor.LAST_ERROR);
        }

        /** This thread's last error, read through the table. */
        String lastError() throws Throwable {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = arena.allocate(1024);
                MemorySegment length = arena.allocate(JAVA_LONG);
                int status = (int) lastError.invokeExact(buffer.address(), buffer.byteSize(), length.address());
                assertEquals(CallStatus.OK, CallStatus.ofCode(status), "last_error");
                return buffer.getString(0, StandardCharsets.UTF_8);
            }
        }

        private static MethodHandle member(MemorySegment table, int offset, FunctionDescriptor descriptor) {
            return Linker.nativeLinker().downcallHandle(table.get(ADDRESS, offset), descriptor);
        }
    }
}
