package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Signal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;

/**
 * One instance of a plugin in the process's shared runtime ({@link GuestSetup}): its name, the arguments its host
 * gave, and what it owns. Names it exports are {@code "<name>/<local>"}, so two instances of one plugin export the
 * same local names without meeting; {@link #free} closes exactly what was registered here, newest first.
 */
public final class GuestInstance {
    private final ActorRuntime runtime;
    private final HostAbi abi;
    private final String name;
    private final Map<String, String> arguments;
    private final Deque<AutoCloseable> owned = new ArrayDeque<>();

    GuestInstance(ActorRuntime runtime, HostAbi abi, String name, Map<String, String> arguments) {
        this.runtime = runtime;
        this.abi = abi;
        this.name = name;
        this.arguments = Map.copyOf(arguments);
    }

    /** The process's runtime, shared by every instance of every plugin. */
    public ActorRuntime runtime() {
        return runtime;
    }

    /** The instance's name, unique in the process ({@code "DelaySetup#3"}). */
    public String name() {
        return name;
    }

    /** The name a host looks {@code local} up under: {@code "<name>/<local>"}. */
    public String exported(String local) {
        Objects.requireNonNull(local, "local");
        return name + "/" + local;
    }

    /** The host's argument {@code key} ({@code "key=value"} at instantiation), or null. */
    public String argument(String key) {
        return arguments.get(key);
    }

    /** Every argument the host gave. */
    public Map<String, String> arguments() {
        return arguments;
    }

    /** Registers the lane {@code exported(local)} and exports it. Lanes stay registered in the runtime after a free (idle). */
    public synchronized ExecutionLane registerLane(String local) {
        ExecutionLane lane = runtime.registerLane(exported(local));
        abi.exportLane(lane);
        return lane;
    }

    /**
     * Exports {@code gate} as {@code exported(local)}; the free closes it.
     *
     * @return its handle
     */
    public synchronized long exportGate(String local, CallGate gate) {
        long handle = abi.exportGate(exported(local), gate);
        owned.push(gate::close);
        return handle;
    }

    /**
     * Exports {@code signal} as {@code exported(local)}.
     *
     * @return its handle
     */
    public synchronized long exportSignal(String local, Signal signal) {
        return abi.exportSignal(exported(local), signal);
    }

    /** A ring exported as {@code exported(local)}; the free closes Java's side (its memory lives while a host holds it). */
    public synchronized HostRing exportRing(String local, long capacity) {
        HostRing ring = abi.exportRing(exported(local), capacity);
        owned.push(() -> {
            ring.close();
            abi.forgetClosedRing(ring.name());
        });
        return ring;
    }

    /**
     * The free kills {@code actor}.
     *
     * @return {@code actor}
     */
    public synchronized ActorRef own(ActorRef actor) {
        owned.push(actor::kill);
        return actor;
    }

    /** Runs {@code action} at the free, before what was registered earlier. */
    public synchronized void onFree(AutoCloseable action) {
        owned.push(Objects.requireNonNull(action, "action"));
    }

    /** Closes what was registered, newest first; every step runs. @return null, or what failed */
    synchronized String free() {
        String failed = null;
        while (!owned.isEmpty()) {
            try {
                owned.pop().close();
            } catch (Throwable fault) {
                String sentence = ThrowableSummary.of(fault);
                failed = failed == null ? sentence : failed + "; " + sentence;
            }
        }
        return failed;
    }
}
