package dev.lanehost.lanes;

import dev.lanehost.lanes.observe.RuntimeLog;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * A runtime's {@link ActorRuntimeMXBean}: its attributes read {@link RuntimeMetrics}, and its registration on the
 * platform MBean server lasts until the runtime closes (an action it leaves to run at the close unregisters it).
 */
final class RuntimeMBean implements ActorRuntimeMXBean {
    static final String DOMAIN = "dev.lanehost";
    /** Numbers the runtimes registered without a name, process-wide, so two never collide. */
    private static final AtomicLong UNNAMED = new AtomicLong();

    private final RuntimeMetrics metrics;
    private final String profile;
    private final BooleanSupplier closed;

    private RuntimeMBean(RuntimeMetrics metrics, Profile profile, BooleanSupplier closed) {
        this.metrics = metrics;
        this.profile = profile.name();
        this.closed = closed;
    }

    /**
     * Registers the runtime's MBean and arranges its unregistration at close.
     *
     * @param metrics    the runtime's counters, which the attributes read
     * @param closed     whether the runtime is closed
     * @param whenClosed runs an action once the runtime has closed (at once if it has)
     * @param name the ObjectName's {@code name} key, or null for {@code runtime-<n>}
     * @throws IllegalArgumentException if the name is blank, holds a character an ObjectName value cannot, or is taken
     * @throws IllegalStateException    if the runtime is closed
     */
    static ObjectName register(RuntimeMetrics metrics, Profile profile, BooleanSupplier closed,
                                      Consumer<Runnable> whenClosed, String name) {
        String key = name == null ? "runtime-" + UNNAMED.incrementAndGet() : checked(name);
        if (closed.getAsBoolean()) {
            throw new IllegalStateException("cannot register the MBean '" + key + "': the runtime is closed");
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName objectName = objectName(key);
        RuntimeMBean bean = new RuntimeMBean(metrics, profile, closed);
        while (!registered(server, bean, objectName)) {
            if (name != null) {
                throw new IllegalArgumentException("an MBean named " + objectName + " is already registered: give each runtime its own name");
            }
            objectName = objectName("runtime-" + UNNAMED.incrementAndGet()); // a program chose this number as a name: the next
        }
        // A close that raced the check above runs this at once: the MBean never outlives the runtime.
        ObjectName chosen = objectName;
        whenClosed.accept(() -> unregister(server, chosen));
        return chosen;
    }

    /** True if registered under {@code objectName}, false if that name is taken. */
    private static boolean registered(MBeanServer server, RuntimeMBean bean, ObjectName objectName) {
        try {
            server.registerMBean(new StandardMBean(bean, ActorRuntimeMXBean.class, true), objectName);
            return true;
        } catch (InstanceAlreadyExistsException e) {
            return false;
        } catch (JMException e) {
            throw new IllegalStateException("registering " + objectName + " failed: " + e, e);
        }
    }

    private static String checked(String name) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("an MBean name must not be blank");
        }
        for (char c : new char[] {',', '=', ':', '"', '*', '?', '\n'}) {
            if (name.indexOf(c) >= 0) {
                throw new IllegalArgumentException("the MBean name '" + name + "' holds '" + c
                        + "', which an ObjectName value cannot hold unquoted; choose a name without , = : \" * ? or a newline");
            }
        }
        return name;
    }

    private static ObjectName objectName(String key) {
        try {
            return new ObjectName(DOMAIN + ":type=Runtime,name=" + key);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("'" + key + "' makes no valid ObjectName: " + e.getMessage(), e);
        }
    }

    private static void unregister(MBeanServer server, ObjectName objectName) {
        try {
            server.unregisterMBean(objectName);
        } catch (InstanceNotFoundException alreadyGone) {
            // somebody unregistered it by hand: nothing left to do
        } catch (JMException e) {
            RuntimeLog.internalError("unregistering " + objectName, e);
        }
    }

    @Override
    public String getProfile() {
        return profile;
    }

    @Override
    public boolean isClosed() {
        return closed.getAsBoolean();
    }

    @Override
    public long getLiveActors() {
        return metrics.liveActors();
    }

    @Override
    public long getNormalQueued() {
        return metrics.normalQueued();
    }

    @Override
    public long getRefusedLetters() {
        return metrics.refusedLetters();
    }

    @Override
    public long getDroppedMessages() {
        return metrics.droppedMessages();
    }

    @Override
    public long getRestarts() {
        return metrics.restarts();
    }

    @Override
    public long getHydrations() {
        return metrics.hydrations();
    }

    @Override
    public int getStalledLanes() {
        return metrics.stalledLanes();
    }

    @Override
    public long getLaneStallReports() {
        return metrics.laneStallReports();
    }

    @Override
    public int getWorkerCount() {
        return metrics.workerCount();
    }

    @Override
    public String[] getWorkerThreads() {
        return metrics.workers().stream().map(WorkerStats::thread).toArray(String[]::new);
    }

    @Override
    public long[] getWorkerTurns() {
        return perWorker(WorkerStats::turns);
    }

    @Override
    public long[] getWorkerStealAttempts() {
        return perWorker(WorkerStats::stealAttempts);
    }

    @Override
    public long[] getWorkerSteals() {
        return perWorker(WorkerStats::steals);
    }

    @Override
    public long[] getWorkerNormalQueued() {
        return perWorker(WorkerStats::normalQueued);
    }

    @Override
    public long[] getWorkerPinnedQueued() {
        return perWorker(WorkerStats::pinnedQueued);
    }

    @Override
    public long getAffinitySuccesses() {
        return metrics.affinitySuccesses();
    }

    @Override
    public long getAffinityFailures() {
        return metrics.affinityFailures();
    }

    @Override
    public Map<String, Long> getHaltsByReason() {
        return metrics.haltsByReason();
    }

    private long[] perWorker(ToLongFunction<WorkerStats> counter) {
        List<WorkerStats> workers = metrics.workers();
        return workers.stream().mapToLong(counter).toArray();
    }
}
