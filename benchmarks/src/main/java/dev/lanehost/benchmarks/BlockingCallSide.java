package dev.lanehost.benchmarks;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.Profile;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * Our side of {@link BlockingCallLatency}: a HOSTED runtime (the default idle strategy), one actor and its gate, and
 * rounds of blocking calls from the calling thread, every call timed. The entry is {@code java} ({@link CallGate#call}
 * with plain arguments, copied by the call) or {@code cbor} ({@link CallGate#callEncoded(MemorySegment, long, long,
 * long, CallReply)} through a CBOR gate with a reply the caller keeps, as a native host calls through the host table).
 *
 * <p>As an {@link IntFunction} it answers a round's percentiles ({@link BlockingCallLatency#PERCENTILES}) in a
 * {@code long[]}: a type every class loader shares, so {@link BlockingCallAb} can run the sides of two builds, each
 * loaded from its own jar, in one JVM.
 */
public final class BlockingCallSide implements IntFunction<long[]>, AutoCloseable {
    /** The entries: {@code java}, {@code java-list} (the handler answers its arguments, which the caller reads), {@code cbor}. */
    public static final List<String> ENTRIES = List.of("java", "java-list", "cbor");
    private final ActorRuntime runtime;
    private final CallGate gate;
    private final String entry;

    public BlockingCallSide(String entry) {
        if (!ENTRIES.contains(entry)) {
            throw new IllegalArgumentException("entry must be one of " + ENTRIES + ", got '" + entry + "'");
        }
        this.entry = entry;
        runtime = ActorRuntime.builder(Profile.HOSTED).idleStrategy(IdleStrategy.DEFAULT).build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        gate = switch (entry) {
            case "java" -> CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
            case "java-list" -> CallGate.open(actor, (context, values) -> values);
            default -> CallGate.openCbor(actor, CallGateBenchmark.FIRST_ARGUMENT);
        };
    }

    /** One round of {@code calls} calls, each timed. */
    public Histogram round(int calls) {
        return switch (entry) {
            case "java" -> javaCalls(calls);
            case "java-list" -> javaListCalls(calls);
            default -> cborCalls(calls);
        };
    }

    @Override
    public long[] apply(int calls) {
        Histogram round = round(calls);
        long[] values = new long[BlockingCallLatency.PERCENTILES.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = round.getValueAtPercentile(BlockingCallLatency.PERCENTILES[i]);
        }
        return values;
    }

    @Override
    public void close() {
        runtime.close();
    }

    private Histogram javaCalls(int calls) {
        Duration timeout = Duration.ofSeconds(10);
        return BlockingCallLatency.timed(calls, i -> {
            CallResult result = gate.call(BlockingCallLatency.ARGS, timeout);
            if (result.status() != CallStatus.OK) {
                throw new IllegalStateException("call " + i + " answered " + result.status() + ": " + result.detail());
            }
        });
    }

    /** The handler answers the arguments it got; the caller reads every element of the answer. */
    private Histogram javaListCalls(int calls) {
        Duration timeout = Duration.ofSeconds(10);
        List<Object> expected = List.of(7L, "frame");
        return BlockingCallLatency.timed(calls, i -> {
            CallResult result = gate.call(BlockingCallLatency.ARGS, timeout);
            if (result.status() != CallStatus.OK || !(result.value() instanceof List<?> answer) || !answer.equals(expected)) {
                throw new IllegalStateException("call " + i + " answered " + result.status() + ": " + result.value() + " " + result.detail());
            }
        });
    }

    private Histogram cborCalls(int calls) {
        MemorySegment arguments = MemorySegment.ofArray(CallGateBenchmark.SMALL_CBOR_ARGS);
        CallReply reply = new CallReply();
        long timeoutNanos = TimeUnit.SECONDS.toNanos(10);
        long expected = ((Number) BlockingCallLatency.ARGS.get(0)).longValue();
        return BlockingCallLatency.timed(calls, i -> {
            CallStatus status = gate.callEncoded(arguments, 0, arguments.byteSize(), timeoutNanos, reply);
            if (status != CallStatus.OK || reply.resultLength() != 1 || reply.resultArray()[0] != expected) {
                throw new IllegalStateException("call " + i + " answered " + status + ": " + reply.detail());
            }
        });
    }
}
