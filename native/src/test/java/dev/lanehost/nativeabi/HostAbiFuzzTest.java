package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * No host input crashes the process or goes unanswered: the C fuzzer ({@code lanehost_testhost_fuzz}) calls
 * every member of a live runtime's host function table from four pthreads at once with forged handles, NULL
 * pointers, lengths past the caps, bad names and random CBOR, mixed with valid calls, and the runtime still
 * answers a valid call afterwards.
 *
 * <p>The normal test command makes {@value #DEFAULT_CALLS} calls. A long run:
 * {@code mvn -B -o -pl native -am test -Dtest=HostAbiFuzzTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dlanehost.fuzz.calls=1000000} (and {@code -Dlanehost.fuzz.seed=N} to replay or vary a run).
 */
class HostAbiFuzzTest {
    private static final long DEFAULT_CALLS = 50_000;
    private static final int THREADS = 4;
    private static final PlainCodec CODEC = new PlainCodec();

    @Test
    void everyEntryAnswersEveryInputWithAStatusAndEveryFailureWithText() throws Exception {
        long calls = Long.getLong("lanehost.fuzz.calls", DEFAULT_CALLS);
        long seed = Long.getLong("lanehost.fuzz.seed", 20261130L);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             Arena arena = Arena.ofConfined()) {
            Targets targets = export(runtime, abi);

            long started = System.nanoTime();
            TestHost.FuzzReport report = TestHost.fuzz(abi.table(), THREADS, calls / THREADS, seed);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            System.out.printf("host ABI fuzz, seed %d, %d threads: %s; %d ms%n", seed, THREADS, report, millis);

            assertEquals(0, report.invalidStatuses(), "returns that are no lanehost_status: " + report);
            assertEquals(0, report.missingErrors(), "failures without last_error text: " + report);
            assertEquals(0, report.wrongAnswers(), "valid calls answered wrongly: " + report);
            assertEquals(0, report.count(CallStatus.INTERNAL_ERROR), "faults inside lanehost: " + report);
            assertTrue(report.calls() >= 2 * calls, "every call is followed by a last_error check: " + report);
            for (String entry : TestHost.FUZZ_ENTRIES) {
                assertTrue(report.calls(entry) > 0, entry + " was never called: " + report);
            }
            for (CallStatus reached : new CallStatus[] {CallStatus.OK, CallStatus.INVALID_ARGUMENT, CallStatus.WRONG_THREAD,
                    CallStatus.ACTOR_TERMINATED, CallStatus.OUT_OF_MEMORY}) {
                assertTrue(report.count(reached) > 0, reached + " was never reached, so the valid calls did not run: " + report);
            }
            // The throwing handler runs once: its actor halts. That one call answers CALLBACK_FAILED unless its caller's
            // timeout (a well-formed call's may be under a millisecond) ran out while the turn ran: then TIMED_OUT.
            assertTrue(report.count(CallStatus.CALLBACK_FAILED) > 0 || targets.thrower.isTerminated(),
                    "the throwing gate's handler never ran: " + report);

            assertEquals(0, targets.ring.hostReferences(), "every ring reference a thread took was released once");
            assertEquals(0, abi.liveHandles().get("ring reference"));
            assertEquals(Map.of("echo", "still answering"), echoFromANewPthread(abi, targets.echoGate, arena),
                    "the runtime answers a valid gate call after the run");
        }
    }

    /** What the fuzzer looks up by name: a lane, three gates, two signals and a ring. */
    private record Targets(long echoGate, ActorRef thrower, HostRing ring) {
    }

    private static Targets export(ActorRuntime runtime, HostAbi abi) throws Exception {
        abi.exportLane(runtime.registerLane(TestHost.FUZZ_LANE));
        long echoGate = abi.exportGate(TestHost.FUZZ_ECHO_GATE,
                CallGate.open(runtime.spawn("fuzz-echo", HostAbiFuzzTest::idle), HostAbiFuzzTest::echo));
        ActorRef thrower = runtime.spawn("fuzz-thrower", HostAbiFuzzTest::idle);
        abi.exportGate(TestHost.FUZZ_THROWING_GATE, CallGate.open(thrower,
                (context, args) -> {
                    throw new IllegalStateException("the fuzz target's handler throws by design");
                }));
        abi.exportGate(TestHost.FUZZ_LANE_GATE,
                CallGate.open(runtime.spawnOnLane(TestHost.FUZZ_LANE, "fuzz-lane-echo", HostAbiFuzzTest::idle), HostAbiFuzzTest::echo));

        CompletableFuture<Signal[]> signals = new CompletableFuture<>();
        runtime.spawn("fuzz-signals", () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                signals.complete(new Signal[] {
                    context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null),
                    context.signal(SignalMode.ONE_SHOT, (c, payload) -> { }, null)});
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
        Signal[] made = signals.get(30, TimeUnit.SECONDS);
        abi.exportSignal(TestHost.FUZZ_SIGNAL, made[0]);
        abi.exportSignal(TestHost.FUZZ_ONE_SHOT_SIGNAL, made[1]);
        return new Targets(echoGate, thrower, abi.exportRing(TestHost.FUZZ_RING, 4096));
    }

    private static Behavior idle() {
        return (context, message) -> { };
    }

    private static Object echo(ActorContext context, Object args) {
        return Map.of("echo", args == null ? "no arguments" : args);
    }

    /** One gate_call through the table, from a pthread Java never created, with its buffers in C memory. */
    private static Object echoFromANewPthread(HostAbi abi, long gate, Arena arena) throws Exception {
        MemorySegment gateCall = abi.table().get(ADDRESS, HostAbiDescriptor.GATE_CALL_OFFSET);
        byte[] encoded = CODEC.encode("still answering");
        MemorySegment args = arena.allocate(encoded.length);
        MemorySegment.copy(encoded, 0, args, JAVA_BYTE, 0, encoded.length);
        MemorySegment result = arena.allocate(256);
        MemorySegment resultLength = arena.allocate(JAVA_LONG);
        int status = TestHost.gateCallOnNewThread(MemorySegment.NULL, gateCall, gate, args, encoded.length, result,
                result.byteSize(), resultLength, TimeUnit.SECONDS.toNanos(30));
        assertEquals(CallStatus.OK, CallStatus.ofCode(status), "gate_call after the run");
        byte[] answer = result.asSlice(0, resultLength.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
        return CODEC.decode(answer);
    }
}
