package dev.lanehost.benchmarks;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.CborCallHandler;
import dev.lanehost.callgate.EncodedCallResult;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import javax.swing.SwingUtilities;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.jctools.queues.MpscArrayQueue;

/**
 * Gate round trips, sampled so the report carries p50/p99:
 * <ul>
 *   <li>{@code callOnLane}: a host callback (the JMH thread, bound to the lane) calls a lane actor with small
 *       arguments and drives the lane until the answer is ready (target ≤ 1 µs);</li>
 *   <li>{@code callOnLaneEncoded}: the same call through the CBOR entry a native host uses: CBOR arguments in, the
 *       CBOR result out;</li>
 *   <li>{@code callOnLaneReply}, {@code callOnLaneCbor}: the CBOR entry that answers into a {@link CallReply} the
 *       caller keeps, to a gate with a plain handler (values decoded and encoded) and to one whose handler reads and
 *       writes CBOR in place ({@link CallGate#openCbor}: nothing allocated);</li>
 *   <li>{@code tableCallOnLane}: a C pthread calls {@code gate_call_on_lane} through the host function table,
 *       {@value #TABLE_BATCH} calls back to back, the result into its own buffer (average ns per call: the whole
 *       native path, the upcall included), to a plain or a CBOR gate ({@code handler});</li>
 *   <li>{@code blockingCall}: the blocking entry from another thread to an actor on a HOSTED worker, with each idle
 *       strategy ({@code idle}: the default spin-then-park, or a busy spin)
 *       (target p50 ≤ 10 µs);</li>
 *   <li>{@code blockingCallEncoded}: the blocking entry through CBOR, in new arrays; {@code blockingCallCbor}: into
 *       a reply, to a CBOR gate, as a native host's {@code gate_call} makes it;</li>
 *   <li>{@code swingInvokeAndWait}: the same empty work through {@code SwingUtilities.invokeAndWait} on a
 *       headless EDT, the closest thing users have today (target: the blocking call ≥ 3× faster);</li>
 *   <li>{@code floorCall}: the floor under any blocking call to another thread, for the blocking entries' ratios:
 *       the caller hands a new call object (the arguments and a volatile answer field) to a server thread that spins
 *       for it, through one volatile slot ({@code handoff=slot}: the least a call can cross) or a JCTools
 *       {@code MpscArrayQueue} ({@code handoff=queue}: the least a call that several threads may make at once can
 *       cross), and spins until the answer is in. No actor, gate, status or timeout: what is left is the cache lines
 *       the call and its answer move between the two cores.</li>
 * </ul>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched heap: with the JVM's default heap the object entries' allocations keep touching fresh pages,
// and each first touch (a page fault, ~10 us in a VM) lands in the tail (benchmarks/HISTORY.md, "Call gates").
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Djava.awt.headless=true",
        "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class CallGateBenchmark {
    static final List<Object> SMALL_ARGS = List.of(7, "frame");
    /** {@link #SMALL_ARGS} as a native host sends them. */
    static final byte[] SMALL_CBOR_ARGS = encode(SMALL_ARGS);
    static final int TABLE_BATCH = 10_000;
    /** The plain handler's work, in place: the first argument back. */
    static final CborCallHandler FIRST_ARGUMENT = (context, in, out) -> {
        in.readArray();
        out.writeLong(in.readLong());
    };

    private static byte[] encode(Object value) {
        try {
            return new PlainCodec().encode(value);
        } catch (PlainValueException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One runtime per JMH thread: the thread that first drives the lane owns it. */
    @State(Scope.Thread)
    public static class LaneHost {
        ActorRuntime runtime;
        ExecutionLane lane;
        CallGate gate;
        CallGate cborGate;
        CallReply reply;
        MemorySegment args;

        @Setup(Level.Trial)
        public void setUp() {
            runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
            lane = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
            gate = CallGate.open(actor, (context, args) -> ((List<?>) args).get(0));
            cborGate = CallGate.openCbor(actor, FIRST_ARGUMENT);
            reply = new CallReply();
            args = MemorySegment.ofArray(SMALL_CBOR_ARGS);
            lane.drive(0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            runtime.close();
        }
    }

    /** A C pthread that calls a lane actor's gate through the host function table; the lane is bound to it. */
    @State(Scope.Benchmark)
    public static class TableHost {
        /** The gate's handler: plain values ({@link CallGate#open}) or CBOR in place ({@link CallGate#openCbor}). */
        @Param({"plain", "cbor"})
        public String handler;
        ActorRuntime runtime;
        HostAbi abi;
        TestHost.HostThread host;
        Arena arena;
        long gate;
        long lane;
        MemorySegment args;
        MemorySegment result;
        MemorySegment resultLength;

        @Setup(Level.Trial)
        public void setUp() {
            runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
            ExecutionLane frame = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
            abi = HostAbi.open(runtime);
            lane = abi.exportLane(frame);
            gate = abi.exportGate("renderer", handler.equals("cbor") ? CallGate.openCbor(actor, FIRST_ARGUMENT)
                    : CallGate.open(actor, (context, args) -> ((List<?>) args).get(0)));
            arena = Arena.ofShared();
            args = arena.allocate(SMALL_CBOR_ARGS.length);
            args.copyFrom(MemorySegment.ofArray(SMALL_CBOR_ARGS));
            result = arena.allocate(64);
            resultLength = arena.allocate(ValueLayout.JAVA_LONG);
            host = TestHost.startHostThread(abi.table());
            if (call(1) != 1) { // attaches the pthread and binds the lane before measuring
                throw new IllegalStateException("the first gate_call_on_lane failed");
            }
        }

        long call(long times) {
            return host.runRepeat(TestHost.HostThread.GATE_CALL_ON_LANE, lane, gate, 0, args, SMALL_CBOR_ARGS.length,
                    result, result.byteSize(), resultLength, 0, times);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            host.close();
            abi.close();
            runtime.close();
            arena.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Hosted {
        /** How idle workers wait: the default (adaptive spin, then park), a fixed ~50 µs spin, or a busy spin. */
        @Param({"default", "fixed", "busySpin"})
        public String idle;
        ActorRuntime runtime;
        CallGate gate;
        CallGate cborGate;
        CallReply reply;
        MemorySegment args;

        @Setup(Level.Trial)
        public void setUp() {
            reply = new CallReply();
            args = MemorySegment.ofArray(SMALL_CBOR_ARGS);
            runtime = ActorRuntime.builder(Profile.HOSTED)
                    .idleStrategy(switch (idle) {
                        case "busySpin" -> IdleStrategy.busySpin();
                        case "fixed" -> IdleStrategy.backoff(2_000, 0);
                        default -> IdleStrategy.DEFAULT;
                    }).build();
            ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
            gate = CallGate.open(actor, (context, args) -> ((List<?>) args).get(0));
            cborGate = CallGate.openCbor(actor, FIRST_ARGUMENT);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            runtime.close();
        }
    }

    /** A call of the floor benchmarks: its arguments in, the server's answer out. */
    static final class FloorCall {
        final Object args;
        volatile Object answer;

        FloorCall(Object args) {
            this.args = args;
        }

        /** What the gates' plain handler does: the first argument back. */
        void serve() {
            answer = ((List<?>) args).get(0);
        }

        Object await() {
            Object answer;
            while ((answer = this.answer) == null) {
                Thread.onSpinWait();
            }
            return answer;
        }
    }

    /**
     * A server thread that busy-spins for calls, handed in through one volatile slot or an MPSC queue
     * ({@code handoff}). The slot is the middle element of an array whose padding keeps other objects off its line.
     */
    @State(Scope.Benchmark)
    public static class Floor {
        private static final int SLOT = 16;
        @Param({"slot", "queue"})
        public String handoff;
        final AtomicReferenceArray<FloorCall> slot = new AtomicReferenceArray<>(2 * SLOT + 1);
        final MpscArrayQueue<FloorCall> queue = new MpscArrayQueue<>(1024);
        volatile boolean running = true;
        private boolean throughSlot;
        Thread server;

        @Setup(Level.Trial)
        public void setUp() {
            throughSlot = handoff.equals("slot");
            server = Thread.ofPlatform().daemon().name("floor-server").start(throughSlot ? this::serveSlot : this::serveQueue);
        }

        private void serveSlot() {
            FloorCall last = null;
            while (running) {
                FloorCall call = slot.get(SLOT);
                if (call == null || call == last) {
                    Thread.onSpinWait();
                    continue;
                }
                call.serve();
                last = call;
            }
        }

        private void serveQueue() {
            while (running) {
                FloorCall call = queue.relaxedPoll();
                if (call == null) {
                    Thread.onSpinWait();
                    continue;
                }
                call.serve();
            }
        }

        Object call(Object args) {
            FloorCall call = new FloorCall(args);
            if (throughSlot) {
                slot.set(SLOT, call);
            } else {
                while (!queue.offer(call)) {
                    Thread.onSpinWait();
                }
            }
            return call.await();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            running = false;
            server.join();
        }
    }

    /**
     * The placement before and after each iteration of the blocking calls and their floor, printed into the run's
     * log ({@code # placement iteration before/after: ...}) beside the iteration's percentiles: within one trial the
     * host may move the two vCPUs, and a far iteration's p50 is ~4× a close one's. With busy-spinning workers the probe
     * shares the cores with them and reads high.
     */
    @State(Scope.Thread)
    public static class IterationPlacement {
        static final int ROUND_TRIPS = 20_000;

        @Setup(Level.Iteration)
        public void before() {
            System.out.println("# placement iteration before: " + PlacementProbe.measure(ROUND_TRIPS));
        }

        @TearDown(Level.Iteration)
        public void after() {
            System.out.println("# placement iteration after: " + PlacementProbe.measure(ROUND_TRIPS));
        }
    }

    @Benchmark
    public Object floorCall(Floor floor, IterationPlacement placement) {
        return floor.call(SMALL_ARGS);
    }

    @Benchmark
    public CallResult callOnLane(LaneHost host) {
        return host.gate.callOnLane(host.lane, SMALL_ARGS, 0);
    }

    @Benchmark
    public EncodedCallResult callOnLaneEncoded(LaneHost host) {
        return host.gate.callOnLaneEncoded(host.lane, SMALL_CBOR_ARGS, 0);
    }

    @Benchmark
    public CallStatus callOnLaneReply(LaneHost host) {
        return host.gate.callOnLaneEncoded(host.lane, host.args, 0, host.args.byteSize(), 0, host.reply);
    }

    @Benchmark
    public CallStatus callOnLaneCbor(LaneHost host) {
        return host.cborGate.callOnLaneEncoded(host.lane, host.args, 0, host.args.byteSize(), 0, host.reply);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OperationsPerInvocation(TABLE_BATCH)
    public long tableCallOnLane(TableHost host) {
        long ok = host.call(TABLE_BATCH);
        if (ok != TABLE_BATCH) {
            throw new IllegalStateException((TABLE_BATCH - ok) + " of " + TABLE_BATCH + " gate_call_on_lane calls failed");
        }
        return ok;
    }

    @Benchmark
    public CallResult blockingCall(Hosted hosted, IterationPlacement placement) {
        return hosted.gate.call(SMALL_ARGS, Duration.ofSeconds(10));
    }

    @Benchmark
    public EncodedCallResult blockingCallEncoded(Hosted hosted) {
        return hosted.gate.callEncoded(SMALL_CBOR_ARGS, 10_000_000_000L);
    }

    @Benchmark
    public CallStatus blockingCallCbor(Hosted hosted) {
        return hosted.cborGate.callEncoded(hosted.args, 0, hosted.args.byteSize(), 10_000_000_000L, hosted.reply);
    }

    @Benchmark
    public void swingInvokeAndWait() throws InterruptedException, InvocationTargetException {
        SwingUtilities.invokeAndWait(() -> { });
    }
}
