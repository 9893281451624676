package dev.lanehost.nativeabi;

import dev.lanehost.nativeabi.internal.HandleTable;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.DriveCounts;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Signal;
import java.lang.foreign.MemorySegment;
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
 *       bytes of native memory per table, and one of the 1024 tables a process can open): a host thread that calls
 *       after {@link #close()}, even through a function pointer it copied out of the table, is answered
 *       {@code LANEHOST_CLOSED} by C, never sent into freed code or another runtime.</li>
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
    /** This host ABI's table number (its C trampoline set) in every handle it issues, so other tables refuse them. */
    private final int instance;
    final HandleTable<ExecutionLane> lanes;
    final HandleTable<CallGate> gates;
    final HandleTable<Signal> signals;
    final HandleTable<HostRing> ringReferences;
    final Map<String, Long> laneNames = new ConcurrentHashMap<>();
    final Map<String, Long> gateNames = new ConcurrentHashMap<>();
    final Map<String, Long> signalNames = new ConcurrentHashMap<>();
    final Map<String, HostRing> rings = new ConcurrentHashMap<>();
    private final HostEntries entries;
    private final MemorySegment table;
    volatile boolean closed;

    private HostAbi(ActorRuntime runtime) {
        this.runtime = runtime;
        this.instance = HostTables.reserve();
        this.lanes = new HandleTable<>(1, "lane", instance);
        this.gates = new HandleTable<>(2, "gate", instance);
        this.signals = new HandleTable<>(3, "signal", instance);
        this.ringReferences = new HandleTable<>(4, "ring reference", instance);
        this.entries = new HostEntries(this);
        this.table = HostTables.open(instance, entries, HostAbiDescriptor.JAVA_ENTRIES);
        // Once the runtime has closed, C answers every entry but ring_release itself.
        runtime.whenClosed(() -> HostTables.restrict(instance, HostTables.AFTER_RUNTIME_CLOSE));
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

    /**
     * Lets hosts look the lane up by its name and drive it.
     *
     * @return the lane's handle
     */
    public long exportLane(ExecutionLane lane) {
        Objects.requireNonNull(lane, "lane");
        return exportEntry(laneNames, lane.name(), lanes, handle -> new ExportedLane(handle, lane));
    }

    /**
     * Lets hosts look the gate up by {@code name} and call it; it leaves the table when it closes.
     *
     * @return its handle
     */
    public long exportGate(String name, CallGate gate) {
        Objects.requireNonNull(gate, "gate");
        freeIfEnded(gateNames, name, gates, previous -> previous.actor().exitReason().isPresent());
        long handle = export(gateNames, name, gates, gate);
        gate.onClose(() -> unexport(gateNames, name, gates, handle));
        return handle;
    }

    /**
     * Lets hosts look the signal up by {@code name} and fire it.
     *
     * @return its handle
     */
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

    /**
     * Takes a ring's name off the table once Java has closed it. A name kept after the close answers lookups with
     * CLOSED; a guest instance's names are never used again, so keeping them would grow the table by every instance
     * a host ever made.
     */
    void forgetClosedRing(String name) {
        rings.computeIfPresent(name, (key, ring) -> ring.isClosed() ? null : ring);
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
        HostTables.restrict(instance, HostTables.AFTER_HOST_ABI_CLOSE);
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
        /** The lane, typed: {@code lane_drive} reads it without the erased value's cast. */
        final ExecutionLane lane;
        private final DriveCounts boundThreadCounts = new DriveCounts();

        ExportedLane(long handle, ExecutionLane lane) {
            super(handle, lane);
            this.lane = lane;
        }

        DriveCounts countsForCurrentThread() {
            return lane.isBoundToCurrentThread() ? boundThreadCounts : new DriveCounts();
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
}
