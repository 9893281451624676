package dev.lanehost.nativeabi;

import dev.lanehost.nativeabi.internal.HandleTable;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.DriveCounts;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Signal;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The C host ABI of one runtime: the function table ({@code lanehost_api} in {@code lanehost.h}) a native
 * host receives, the upcall stubs behind it, and the handles it hands out for what Java exports to hosts.
 *
 * <pre>{@code
 * try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
 *      HostAbi abi = HostAbi.open(runtime)) {
 *     abi.exportLane(runtime.registerLane("frame"));
 *     abi.exportGate("input", CallGate.open(player, handler));
 *     int started = (int) hostStart.invokeExact(abi.table());  // the host's C function: int host_start(const lanehost_api *)
 * }
 * }</pre>
 *
 * <h2>Lifecycle</h2>
 * <ol>
 *   <li>{@link #open} builds the stubs and the table. Both live for the rest of the process (a few hundred
 *       bytes of native memory per table): a host thread that calls after {@link #close()} is answered
 *       {@code LANEHOST_CLOSED}, never sent into freed code.</li>
 *   <li>Exports give hosts names to look up. A gate leaves the table when it closes, a signal when it can
 *       fire no more, a ring when Java closes it and every host reference is released.</li>
 *   <li>{@link #close()} refuses every later entry with {@code LANEHOST_CLOSED} and takes the exported
 *       gates, signals and rings off the table (it does not close them: a gate, and a {@link HostRing} whose
 *       memory is freed only once it is closed, stay their owner's to close); lane handles follow their runtime
 *       until its close has finished, then the lanes are dropped too, so nothing of the runtime stays reachable
 *       from the table. Ring references a host still holds stay valid until it releases them.</li>
 * </ol>
 * Nothing here is process-wide: two runtimes have two tables with separate handles. Each host ABI's handles carry
 * its own instance number, so a handle of one passed to another's table answers {@code LANEHOST_INVALID_ARGUMENT}
 * (it belongs to another runtime), never the object in the same slot there.
 */
public final class HostAbi implements AutoCloseable {
    private final ActorRuntime runtime;
    /** This host ABI's number in every handle it issues, so another host ABI's tables refuse them. */
    private final int instance = HandleTable.newInstance();
    final HandleTable<ExecutionLane> lanes = new HandleTable<>(0x4C, "lane", instance); // 'L'
    final HandleTable<CallGate> gates = new HandleTable<>(0x47, "gate", instance); // 'G'
    final HandleTable<Signal> signals = new HandleTable<>(0x53, "signal", instance); // 'S'
    final HandleTable<HostRing> ringReferences = new HandleTable<>(0x52, "ring reference", instance); // 'R'
    final Map<String, Long> laneNames = new ConcurrentHashMap<>();
    final Map<String, Long> gateNames = new ConcurrentHashMap<>();
    final Map<String, Long> signalNames = new ConcurrentHashMap<>();
    final Map<String, HostRing> rings = new ConcurrentHashMap<>();
    private final HostEntries entries;
    private final MemorySegment table;
    volatile boolean closed;

    private HostAbi(ActorRuntime runtime) {
        this.runtime = runtime;
        this.entries = new HostEntries(this);
        this.table = buildTable(entries);
    }

    /** The host ABI of {@code runtime}: a new table with its own handles. */
    public static HostAbi open(ActorRuntime runtime) {
        Objects.requireNonNull(runtime, "runtime");
        if (runtime.isClosed()) {
            throw new IllegalStateException("the runtime is closed");
        }
        return new HostAbi(runtime);
    }

    /** The {@code const lanehost_api *} to hand a host. Valid for the life of the process. */
    public MemorySegment table() {
        return table;
    }

    ActorRuntime runtime() {
        return runtime;
    }

    /** Lets hosts look the lane up by its name and drive it. @return the lane's handle */
    public long exportLane(ExecutionLane lane) {
        Objects.requireNonNull(lane, "lane");
        return exportEntry(laneNames, lane.name(), lanes, handle -> new ExportedLane(handle, lane));
    }

    /** Lets hosts look the gate up by {@code name} and call it; it leaves the table when it closes. @return its handle */
    public long exportGate(String name, CallGate gate) {
        Objects.requireNonNull(gate, "gate");
        freeIfEnded(gateNames, name, gates, previous -> previous.actor().exitReason().isPresent());
        long handle = export(gateNames, name, gates, gate);
        gate.onClose(() -> unexport(gateNames, name, gates, handle));
        return handle;
    }

    /** Lets hosts look the signal up by {@code name} and fire it. @return its handle */
    public long exportSignal(String name, Signal signal) {
        Objects.requireNonNull(signal, "signal");
        freeIfEnded(signalNames, name, signals, previous -> !previous.isAttached());
        return export(signalNames, name, signals, signal);
    }

    /**
     * Takes {@code name} off the table if what it exports has ended with its actor: a restarted or hydrated actor's
     * fresh start exports the name again.
     */
    private <T> void freeIfEnded(Map<String, Long> names, String name, HandleTable<T> table, java.util.function.Predicate<T> ended) {
        Long taken = name == null ? null : names.get(name);
        if (taken != null) {
            T previous = table.lookup(taken);
            if (previous == null || ended.test(previous)) {
                unexport(names, name, table, taken);
            }
        }
    }

    /**
     * Allocates a ring of {@code capacity} bytes (a power of two) that hosts can look up by {@code name}; its
     * memory lives until Java closes it and every host reference is released.
     */
    public HostRing exportRing(String name, long capacity) {
        checkName(name);
        checkOpen();
        return HostRing.export(name, capacity, rings);
    }

    /** Handles live now, by kind ("lane", "gate", "signal", "ring reference"), for tests and diagnostics. */
    public Map<String, Integer> liveHandles() {
        return Map.of(lanes.kindName(), lanes.size(), gates.kindName(), gates.size(),
                signals.kindName(), signals.size(), ringReferences.kindName(), ringReferences.size());
    }

    /**
     * Every later entry answers {@code LANEHOST_CLOSED}, except that a lane handle keeps reaching its lane
     * until the runtime's close has finished (so a host thread still calling back runs its lane's teardown,
     * whichever of the two Java closes first). Gates, signals and rings leave the table now (closing none of them:
     * close each {@link HostRing} to free its memory), lanes when the runtime's close finishes. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        laneNames.clear();
        gateNames.clear();
        signalNames.clear();
        rings.clear();
        gates.clear();
        signals.clear();
        runtime.whenClosed(() -> { // lanes follow their runtime: see HostEntries
            lanes.clear();
            entries.detach();
        });
    }

    /**
     * An exported lane and the counts its bound thread's drives write into: one object reused by that thread
     * is what makes {@code lane_drive} allocation-free. Any other thread (refused, or binding on its first
     * drive) gets counts of its own, so it never writes into the bound thread's. It is the lane table's entry
     * itself, so {@code lane_drive} finds it in the load that checks the handle.
     */
    static final class ExportedLane extends HandleTable.Entry<ExecutionLane> {
        private final DriveCounts boundThreadCounts = new DriveCounts();

        ExportedLane(long handle, ExecutionLane lane) {
            super(handle, lane);
        }

        DriveCounts countsForCurrentThread() {
            return value().isBoundToCurrentThread() ? boundThreadCounts : new DriveCounts();
        }
    }

    void unexport(Map<String, Long> names, String name, HandleTable<?> table, long handle) {
        names.remove(name, handle);
        table.unregister(handle);
    }

    private <T> long export(Map<String, Long> names, String name, HandleTable<T> table, T value) {
        return exportEntry(names, name, table, handle -> new HandleTable.Entry<>(handle, value));
    }

    private <T> long exportEntry(Map<String, Long> names, String name, HandleTable<T> table,
                                 LongFunction<? extends HandleTable.Entry<T>> entryFor) {
        checkName(name);
        checkOpen();
        long handle = table.registerEntry(entryFor);
        if (names.putIfAbsent(name, handle) != null) {
            table.unregister(handle);
            throw new IllegalArgumentException("a " + table.kindName() + " named '" + name + "' is already exported");
        }
        return handle;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the host ABI is closed");
        }
    }

    private static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > HostAbiDescriptor.MAX_NAME_BYTES || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a host-visible name is 1.." + HostAbiDescriptor.MAX_NAME_BYTES
                    + " UTF-8 bytes without NUL; got " + bytes + " bytes");
        }
    }

    // ---------------------------------------------------------------- the table

    private static MemorySegment buildTable(HostEntries entries) {
        // Never closed: the stubs and the table must outlive every host thread that could still call.
        Arena forever = Arena.global();
        MemorySegment table = forever.allocate(HostAbiDescriptor.API_SIZE, HostAbiDescriptor.API_ALIGNMENT);
        table.set(JAVA_INT, HostAbiDescriptor.ABI_VERSION_OFFSET, HostAbiDescriptor.HOST_ABI_VERSION);
        table.set(JAVA_INT, HostAbiDescriptor.SIZE_OFFSET, HostAbiDescriptor.API_SIZE);
        stub(table, HostAbiDescriptor.LANE_LOOKUP_OFFSET, entries, "laneLookup", HostAbiDescriptor.LANE_LOOKUP, forever);
        stub(table, HostAbiDescriptor.LANE_DRIVE_OFFSET, entries, "laneDrive", HostAbiDescriptor.LANE_DRIVE, forever);
        stub(table, HostAbiDescriptor.LANE_BIND_OFFSET, entries, "laneBind", HostAbiDescriptor.LANE_BIND, forever);
        stub(table, HostAbiDescriptor.LANE_RELEASE_OFFSET, entries, "laneRelease", HostAbiDescriptor.LANE_RELEASE, forever);
        stub(table, HostAbiDescriptor.THREAD_WARM_UP_OFFSET, entries, "threadWarmUp", HostAbiDescriptor.THREAD_WARM_UP, forever);
        stub(table, HostAbiDescriptor.GATE_LOOKUP_OFFSET, entries, "gateLookup", HostAbiDescriptor.GATE_LOOKUP, forever);
        stub(table, HostAbiDescriptor.GATE_CALL_OFFSET, entries, "gateCall", HostAbiDescriptor.GATE_CALL, forever);
        stub(table, HostAbiDescriptor.GATE_CALL_ON_LANE_OFFSET, entries, "gateCallOnLane", HostAbiDescriptor.GATE_CALL_ON_LANE, forever);
        stub(table, HostAbiDescriptor.SIGNAL_LOOKUP_OFFSET, entries, "signalLookup", HostAbiDescriptor.SIGNAL_LOOKUP, forever);
        stub(table, HostAbiDescriptor.SIGNAL_FIRE_OFFSET, entries, "signalFire", HostAbiDescriptor.SIGNAL_FIRE, forever);
        stub(table, HostAbiDescriptor.RING_LOOKUP_OFFSET, entries, "ringLookup", HostAbiDescriptor.RING_LOOKUP, forever);
        stub(table, HostAbiDescriptor.RING_RELEASE_OFFSET, entries, "ringRelease", HostAbiDescriptor.RING_RELEASE, forever);
        stub(table, HostAbiDescriptor.LAST_ERROR_OFFSET, entries, "lastError", HostAbiDescriptor.LAST_ERROR, forever);
        return table.asReadOnly();
    }

    private static void stub(MemorySegment table, int offset, HostEntries entries, String method,
                             FunctionDescriptor descriptor, Arena arena) {
        try {
            MethodHandle target = MethodHandles.lookup()
                    .findVirtual(HostEntries.class, method, descriptor.toMethodType()).bindTo(entries);
            table.set(ADDRESS, offset, Linker.nativeLinker().upcallStub(target, descriptor, arena));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the host entry " + method + " does not match its descriptor", e);
        }
    }

    /** The entries behind the table, for tests of their answers. */
    HostEntries entriesForTest() {
        return entries;
    }
}
