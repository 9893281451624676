package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A Java caller's flat list of up to four leaves rides in the call's own fields and becomes the handler's list on the
 * actor's thread: the handler gets what {@code PlainCodec.copy} gives, a list of its own, whichever way it came.
 */
class FlatArgumentsTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    /** One of each leaf the flat copy takes, an Integer among them (the copy holds it as a Long). */
    private static final Object[] LEAVES = {7, "frame", null, 1L << 40, 2.5, true, -3};
    private static final List<Function<Object[], List<Object>>> LIST_KINDS = List.of(
            elements -> new ArrayList<>(Arrays.asList(elements)),
            Arrays::asList,
            elements -> List.of(Arrays.stream(elements).map(e -> e == null ? "List.of holds no null" : e).toArray()));

    @Test
    void aFlatListOfUpToFourLeavesIsHeldInTheCallAndEverythingElseIsCopiedAsBefore() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> null);
            for (Function<Object[], List<Object>> kind : LIST_KINDS) {
                for (int size = 0; size <= CallPayload.FLAT_ELEMENTS + 1; size++) {
                    List<Object> args = kind.apply(Arrays.copyOf(LEAVES, size));
                    GateCall call = GateCall.forJava(gate, args, false);
                    assertEquals(size <= CallPayload.FLAT_ELEMENTS, call.holdsFlatArguments(), args.getClass() + " of " + size);
                    assertSameCopy(args, call.plainArguments());
                }
            }
            List<Object> notFlat = List.of(
                    7, // a leaf alone: the copy is the leaf, no list to make
                    List.of(List.of(1)), // a list in the list
                    List.of(1, new ArrayList<>(List.of(2))),
                    new LinkedList<>(List.of(1, 2)), // a list whose reading might run code: the copy's walk reads it
                    List.of(1, new byte[] {2}), // a byte string: an array, which both threads must not share
                    List.of(new java.math.BigInteger("123456789012345678901234567890")),
                    Arrays.asList(1, 2, 3, 4, 5, 6));
            for (Object args : notFlat) {
                GateCall call = GateCall.forJava(gate, args, false);
                assertFalse(call.holdsFlatArguments(), String.valueOf(args));
                assertSameCopy(args, call.plainArguments());
            }
        }
    }

    @Test
    void theHandlerGetsAListOfItsOwnThroughBothEntries() throws Exception {
        ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-callback"));
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            AtomicReference<Object> received = new AtomicReference<>();
            ExecutionLane lane = runtime.registerLane("frame");
            CallGate onWorker = CallGate.open(runtime.spawn("worker", () -> (c, m) -> { }), (context, args) -> keep(received, args));
            CallGate onLane = CallGate.open(runtime.spawnOnLane("frame", "lane", () -> (c, m) -> { }), (context, args) -> keep(received, args));
            for (Function<Object[], List<Object>> kind : LIST_KINDS) {
                for (int size = 0; size <= CallPayload.FLAT_ELEMENTS + 1; size++) {
                    List<Object> args = kind.apply(Arrays.copyOf(LEAVES, size));
                    List<Object> before = new ArrayList<>(args);
                    Object expected = CallGate.CODEC.copy(args).value();

                    CallResult blocking = onWorker.call(args, LONG);
                    assertEquals(CallStatus.OK, blocking.status(), blocking.detail());
                    assertEquals(expected, blocking.value(), "the handler's list as it got it: " + args);
                    assertOwnList(args, before, expected, received.get());

                    List<Object> laneArgs = kind.apply(Arrays.copyOf(LEAVES, size));
                    CallResult driven = host.submit(() -> onLane.callOnLane(lane, laneArgs, 0)).get(30, TimeUnit.SECONDS);
                    assertEquals(CallStatus.OK, driven.status(), driven.detail());
                    assertEquals(expected, driven.value());
                    assertOwnList(laneArgs, before, expected, received.get());
                }
            }
        } finally {
            host.shutdownNow();
        }
    }

    @Test
    void aFlatSizedListThatTheCopyRefusesIsStillRefusedWithTheWalksReason() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CallGate gate = CallGate.open(runtime.spawn("a", () -> (c, m) -> { }), (context, args) -> "ran");
            CallResult surrogate = gate.call(List.of(1, "\uD800"), LONG);
            assertEquals(new CallResult(CallStatus.NOT_SERIALIZABLE, null, "arguments: string at $[1] has an unpaired"
                    + " surrogate at index 0 and cannot be written as UTF-8"), surrogate);
            CallResult foreign = gate.call(Arrays.asList(1, new Object()), LONG);
            assertEquals(CallStatus.NOT_SERIALIZABLE, foreign.status());
            assertTrue(foreign.detail().startsWith("arguments: unsupported type java.lang.Object at $[1]"), foreign.detail());
            assertEquals(0, gate.callsWithStatus(CallStatus.OK), "neither call ran");
        }
    }

    /** The handler keeps what it got, adds to it (its own list) and answers what it got before. */
    @SuppressWarnings("unchecked")
    private static Object keep(AtomicReference<Object> received, Object args) {
        Object answer = args instanceof List<?> list ? new ArrayList<>(list) : args;
        received.set(args);
        if (args instanceof List<?>) {
            ((List<Object>) args).add("added by the handler");
        }
        return answer;
    }

    private static void assertOwnList(List<Object> args, List<Object> before, Object expected, Object received) {
        assertInstanceOf(ArrayList.class, received);
        assertNotSame(args, received);
        assertEquals(before, args, "the handler's add reached the caller's list");
        List<Object> handlers = new ArrayList<>((List<?>) expected);
        handlers.add("added by the handler");
        if (args instanceof ArrayList<Object> mutable) {
            mutable.add("added by the caller afterwards");
            mutable.remove(mutable.size() - 1);
            mutable.add(0, "the caller's own");
        }
        assertEquals(handlers, received, "the caller's change reached the handler's list");
    }

    private static void assertSameCopy(Object args, Object arguments) throws Exception {
        Object expected = CallGate.CODEC.copy(args).value();
        // by their encodings: a byte string's array equals only itself
        assertArrayEquals(CallGate.CODEC.encode(expected), CallGate.CODEC.encode(arguments), String.valueOf(args));
        assertEquals(expected == null ? null : expected.getClass(), arguments == null ? null : arguments.getClass());
        if (args instanceof List<?>) {
            assertNotSame(args, arguments);
        }
    }
}
