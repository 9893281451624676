package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * CBOR arguments of up to 16 bytes ride in two words of the call, packed by the caller after the copy and the check,
 * and the turn reads them from there: the handler meets the same bytes as from the copy, at every length, on a reused
 * call whose earlier arguments were longer or shorter.
 */
class SmallCborArgumentsTest {
    private static final long LONG = TimeUnit.SECONDS.toNanos(30);

    @Test
    void argumentsOfUpToSixteenBytesReachTheTurnFromTheCallsWords() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CallGate gate = CallGate.openCbor(runtime.spawn("a", () -> (c, m) -> { }), (context, in, out) -> { });
            GateCall call = new GateCall(); // one reused call, as a CallReply keeps it
            for (int length : new int[] {1, 16, 2, 9, 24, 8, 17, 15, 3}) { // longer and shorter after one another
                byte[] item = textItem(length);
                call.reset(gate, false);
                assertNull(call.loadArguments(MemorySegment.ofArray(item), 0, item.length, true));
                assertEquals(length <= CallPayload.SMALL_ARGUMENT_BYTES, call.holdsArgumentsInWords(), "length " + length);
                Arrays.fill(call.argBytes, (byte) 0x5a); // the turn must not read the caller's array for a short item
                byte[] turns = call.turnArguments();
                byte[] expected = length <= CallPayload.SMALL_ARGUMENT_BYTES ? item : call.argBytes; // a long one: the array itself
                assertArrayEquals(Arrays.copyOf(expected, length), Arrays.copyOf(turns, length), "length " + length);
            }
        }
    }

    @Test
    void theHandlerReadsEveryLengthAsItWasSentThroughBothEntries() throws Exception {
        ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-callback"));
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ExecutionLane lane = runtime.registerLane("frame");
            CborCallHandler echo = (context, in, out) -> out.writeText(in.readText());
            CallGate onWorker = CallGate.openCbor(runtime.spawn("worker", () -> (c, m) -> { }), echo);
            CallGate onLane = CallGate.openCbor(runtime.spawnOnLane("frame", "lane", () -> (c, m) -> { }), echo);
            CallReply reply = new CallReply();
            for (int length = 1; length <= 24; length++) {
                byte[] item = textItem(length);
                MemorySegment source = MemorySegment.ofArray(item.clone());
                assertEquals(CallStatus.OK, onWorker.callEncoded(source, 0, length, LONG, reply), reply.detail());
                assertArrayEquals(item, reply.resultBytes(), "length " + length);
                int at = length;
                CallStatus driven = host.submit(() -> onLane.callOnLaneEncoded(lane, source, 0, at, 0, reply)).get(30, TimeUnit.SECONDS);
                assertEquals(CallStatus.OK, driven, reply.detail());
                assertArrayEquals(item, reply.resultBytes(), "length " + length + " on the lane");
            }
        } finally {
            host.shutdownNow();
        }
    }

    /** A text item {@code length} bytes long in all: its head and {@code length - 1} letters, a different one each. */
    private static byte[] textItem(int length) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length - 1; i++) {
            text.append((char) ('a' + i));
        }
        CborOut out = new CborOut().writeText(text);
        byte[] item = Arrays.copyOf(out.array(), out.length());
        assertEquals(length, item.length);
        return item;
    }
}
