package dev.lanehost.benchmarks;

import com.sun.jna.Callback;
import com.sun.jna.CallbackReference;
import com.sun.jna.CallbackThreadInitializer;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostAbiDescriptor;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a host callback pays to hand its thread to a lane. Every call comes from a C pthread of the test
 * host (attached to the JVM once, at setup), in batches of {@link #BATCH} back-to-back calls:
 * <ul>
 *   <li>{@code rawUpcall}: an FFM upcall to an empty Java method — the floor;</li>
 *   <li>{@code emptyDrive}: an FFM upcall that calls {@code lane.drive(0)} on an empty lane (target ≤ 1.3× raw);</li>
 *   <li>{@code rawTableUpcall}: the floor of a table call — a host thread calling {@code api->lane_drive}
 *       where the table's member is a raw FFM upcall stub to an empty Java method of the same signature;</li>
 *   <li>{@code tableDrive}: the host ABI's {@code lane_drive} on an empty lane, called through the function
 *       table a host receives (target ≤ 1.1× raw);</li>
 *   <li>{@code tableTurns}: {@code lane_drive} through the table with {@link #TURNS_PER_DRIVE} turns per drive,
 *       reported per turn;</li>
 *   <li>{@code emptyDriveJna}: the same drive through a JNA callback with {@code detach=false} — what users do today;</li>
 *   <li>{@code laneTurns}: one actor on a lane sending itself the next message; each upcall drives
 *       {@link #TURNS_PER_DRIVE} turns. Reported per turn (target ≥ 10 M turns/s, i.e. ≤ 100 ns/turn). SINGLE_THREAD,
 *       whose budget the runner settles after each turn from a clock read;</li>
 *   <li>{@code hostedLaneTurns}: the same on a lane of a HOSTED runtime, whose budget watch runs on the timer
 *       thread: the turn reads no clock.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class LaneDriveBenchmark {
    static final int BATCH = 100_000;
    static final int TURNS_PER_DRIVE = 1_000;
    static final int TURN_DRIVES = 100;

    // Upcall targets are static: an upcall stub binds a static method handle.
    private static volatile ExecutionLane ffmLane;
    private static volatile ExecutionLane jnaLane;
    private static volatile ExecutionLane turnsLane;
    private static volatile ExecutionLane hostedTurnsLane;

    /** JNA's view of {@code int32_t fn(int64_t)}. */
    public interface DriveCallback extends Callback {
        int invoke(long argument);
    }

    private final Arena arena = Arena.ofShared();
    private ActorRuntime runtime;
    private TestHost.Caller raw;
    private TestHost.Caller drive;
    private TestHost.Caller jna;
    private TestHost.Caller turns;
    private ActorRuntime hostedRuntime;
    private TestHost.Caller hostedTurns;
    private HostAbi abi;
    private TestHost.HostThread tableHost;
    private TestHost.HostThread rawTableHost;
    private long tableLane;
    private long tableTurnsLane;
    private final ActorRef[] selfSenders = new ActorRef[3];
    private DriveCallback jnaCallback; // strongly held: JNA frees the trampoline when the callback is collected

    static int empty(long argument) {
        return 0;
    }

    static int emptyDrive(long lane, int maxTurns, long counts) {
        return 0;
    }

    static int driveFfm(long maxTurns) {
        try {
            return ffmLane.drive((int) maxTurns).status().code();
        } catch (Throwable e) {
            return -1;
        }
    }

    static int driveTurns(long maxTurns) {
        try {
            return turnsLane.drive((int) maxTurns).turns();
        } catch (Throwable e) {
            return -1;
        }
    }

    static int driveHostedTurns(long maxTurns) {
        try {
            return hostedTurnsLane.drive((int) maxTurns).turns();
        } catch (Throwable e) {
            return -1;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws ReflectiveOperationException {
        runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ffmLane = runtime.registerLane("ffm");
        jnaLane = runtime.registerLane("jna");
        turnsLane = runtime.registerLane("turns");
        selfSenders[0] = runtime.spawnOnLane("turns", "self-sender", () -> (context, message) -> context.self().tell(message));
        selfSenders[0].tell("go");
        hostedRuntime = ActorRuntime.create(Profile.HOSTED);
        hostedTurnsLane = hostedRuntime.registerLane("turns");
        selfSenders[1] = hostedRuntime.spawnOnLane("turns", "self-sender", () -> (context, message) -> context.self().tell(message));
        selfSenders[1].tell("go");

        abi = HostAbi.open(runtime);
        tableLane = abi.exportLane(runtime.registerLane("table"));
        tableTurnsLane = abi.exportLane(runtime.registerLane("table-turns"));
        selfSenders[2] = runtime.spawnOnLane("table-turns", "self-sender", () -> (context, message) -> context.self().tell(message));
        selfSenders[2].tell("go");
        tableHost = TestHost.startHostThread(abi.table());
        tableHost.driveRepeat(tableLane, 0, 1); // attaches the pthread and binds both lanes before measuring
        tableHost.driveRepeat(tableTurnsLane, 1, 1);

        // A table whose lane_drive is a raw upcall stub to an empty method of the same signature: the floor.
        MemorySegment rawTable = arena.allocate(HostAbiDescriptor.API_SIZE, HostAbiDescriptor.API_ALIGNMENT);
        rawTable.copyFrom(abi.table());
        var emptyDrive = MethodHandles.lookup().findStatic(LaneDriveBenchmark.class, "emptyDrive",
                MethodType.methodType(int.class, long.class, int.class, long.class));
        rawTable.set(java.lang.foreign.ValueLayout.ADDRESS, HostAbiDescriptor.LANE_DRIVE_OFFSET, Linker.nativeLinker().upcallStub(
                emptyDrive, java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT,
                        java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT,
                        java.lang.foreign.ValueLayout.JAVA_LONG), arena));
        rawTableHost = TestHost.startHostThread(rawTable);
        rawTableHost.driveRepeat(tableLane, 0, 1); // attaches the pthread

        raw = TestHost.startCaller(stub("empty"), 0);
        drive = TestHost.startCaller(stub("driveFfm"), 0);
        turns = TestHost.startCaller(stub("driveTurns"), TURNS_PER_DRIVE);
        hostedTurns = TestHost.startCaller(stub("driveHostedTurns"), TURNS_PER_DRIVE);

        jnaCallback = argument -> {
            try {
                return jnaLane.drive((int) argument).status().code();
            } catch (Throwable e) {
                return -1;
            }
        };
        Native.setCallbackThreadInitializer(jnaCallback, new CallbackThreadInitializer(true, false, "jna-host"));
        Pointer pointer = CallbackReference.getFunctionPointer(jnaCallback);
        jna = TestHost.startCaller(MemorySegment.ofAddress(Pointer.nativeValue(pointer)), 0);
    }

    private MemorySegment stub(String method) throws ReflectiveOperationException {
        var handle = MethodHandles.lookup().findStatic(LaneDriveBenchmark.class, method, MethodType.methodType(int.class, long.class));
        return Linker.nativeLinker().upcallStub(handle, TestHost.UPCALL, arena);
    }

    /**
     * A self-sender that halted (a turn held off the CPU long enough to strike out, on a loaded machine) leaves its
     * lane empty, and its benchmark would time empty drives as turns: such an iteration fails instead.
     */
    @TearDown(Level.Iteration)
    public void selfSendersAlive() {
        for (ActorRef sender : selfSenders) {
            if (sender.isTerminated()) {
                throw new IllegalStateException(sender + " halted (" + sender.exitReason().orElseThrow()
                        + "): its lane is empty, and its turns would not be turns");
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        raw.close();
        drive.close();
        jna.close();
        turns.close();
        hostedTurns.close();
        hostedRuntime.close();
        tableHost.close();
        rawTableHost.close();
        abi.close();
        runtime.close();
        arena.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long rawUpcall() {
        return raw.run(BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long emptyDrive() {
        return drive.run(BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long rawTableUpcall() {
        return rawTableHost.driveRepeat(tableLane, 0, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long tableDrive() {
        return tableHost.driveRepeat(tableLane, 0, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(TURN_DRIVES * TURNS_PER_DRIVE)
    public long tableTurns() {
        return tableHost.driveRepeat(tableTurnsLane, TURNS_PER_DRIVE, TURN_DRIVES);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long emptyDriveJna() {
        return jna.run(BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(TURN_DRIVES * TURNS_PER_DRIVE)
    public long laneTurns() {
        return turns.run(TURN_DRIVES);
    }

    @Benchmark
    @OperationsPerInvocation(TURN_DRIVES * TURNS_PER_DRIVE)
    public long hostedLaneTurns() {
        return hostedTurns.run(TURN_DRIVES);
    }
}
