package dev.lanehost.affinity;

import dev.lanehost.affinity.internal.AffinityLibrary;
import dev.lanehost.affinity.internal.AffinityLibrary.Reading;
import dev.lanehost.affinity.internal.CpuRecordLayout.CpuRecord;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The one door to CPU affinity, topology and NUMA memory for the calling thread and process.
 *
 * <p>Nothing here throws because the platform cannot do something: without the native library, on a
 * platform without hard affinity, or under a seccomp filter, every answer degrades to "unsupported"
 * with the reason ({@link Capabilities}, {@link AffinityResult#reason()}, {@link Topology#unavailableReason()}).
 * Only programming errors throw (a null argument).
 *
 * <p>The calling thread's scheduling priority is read here ({@link #currentThreadPriority()}) and set by a
 * {@link PriorityPolicy}.
 *
 * <p>{@link #system()} is backed by {@code liblanehost_affinity}, loaded once by the project's
 * {@code NativeLibraryLoader}; {@link #unavailable(String)} is an instance that can do nothing, for a
 * configuration that turns affinity off and for tests of the fallbacks.
 */
public final class Affinity {
    private static final class SystemHolder {
        static final Affinity SYSTEM = new Affinity(AffinityLibrary.system());
    }

    private final AffinityLibrary library;

    private Affinity(AffinityLibrary library) {
        this.library = library;
    }

    /** Affinity through the native library; if it did not load, an instance that says why on every call. */
    public static Affinity system() {
        return SystemHolder.SYSTEM;
    }

    /** An instance that can do nothing and gives {@code reason} for it. */
    public static Affinity unavailable(String reason) {
        return new Affinity(AffinityLibrary.unavailable(reason));
    }

    /** Whether the native library is loaded (a loaded library may still be denied by the kernel: see {@link #capabilities()}). */
    public boolean available() {
        return library.available();
    }

    /** Why the native library is not there (the loader's list of attempts), or empty. */
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(library.unavailableReason());
    }

    public Capabilities capabilities() {
        String platform = library.platform();
        if (!library.available()) {
            String why = "liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason());
            return new Capabilities(platform, new Capabilities.Capability("native library", false, library.unavailableReason()),
                    no("hard CPU affinity", why), no("NUMA memory binding", why), no("current CPU", why), no("topology", why));
        }
        return new Capabilities(platform,
                new Capabilities.Capability("native library", true, "loaded from " + library.library().path() + " (" + library.library().step() + ")"),
                probe("hard CPU affinity", AffinityLibrary.CAP_HARD_AFFINITY), probe("NUMA memory binding", AffinityLibrary.CAP_NUMA_BINDING),
                probe("current CPU", AffinityLibrary.CAP_CURRENT_CPU), probe("topology", AffinityLibrary.CAP_TOPOLOGY));
    }

    /** The CPUs this process may use (what its cgroup cpuset and taskset allow), or empty if unknown. */
    public Optional<CpuSet> allowedCpus() {
        return library.available() ? value(library.allowedCpus()) : Optional.empty();
    }

    /** The calling thread's affinity mask, or empty if it cannot be read. */
    public Optional<CpuSet> currentThreadMask() {
        return library.available() ? value(library.threadMask()) : Optional.empty();
    }

    /** The CPU the calling thread is running on at this instant (it may move right after), or empty. */
    public OptionalInt currentCpu() {
        if (!library.available()) {
            return OptionalInt.empty();
        }
        Reading<int[]> cpu = library.currentCpu();
        return cpu.ok() ? OptionalInt.of(cpu.value()[0]) : OptionalInt.empty();
    }

    /** The kernel's id of the calling thread ({@code gettid}), as in {@code /proc/self/task/<tid>}, or empty. */
    public OptionalLong currentThreadId() {
        if (!library.available()) {
            return OptionalLong.empty();
        }
        Reading<Long> tid = library.currentThreadId();
        return tid.ok() ? OptionalLong.of(tid.value()) : OptionalLong.empty();
    }

    /**
     * Pins the calling thread to {@code cpus}. Never throws for a refusal: a CPU outside the allowed set,
     * an empty set, a platform without hard affinity all come back as {@link AffinityResult.Outcome#FELL_BACK}
     * with the thread's mask unchanged and the reason naming the problem.
     */
    public AffinityResult pinCurrentThread(CpuSet cpus) {
        if (cpus == null) {
            throw new NullPointerException("cpus");
        }
        if (!library.available()) {
            return AffinityResult.fellBack(cpus, AffinityStatus.UNSUPPORTED,
                    "liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason()));
        }
        if (cpus.isEmpty()) {
            return AffinityResult.fellBack(cpus, AffinityStatus.EMPTY_SET, "the CPU set is empty");
        }
        Reading<Integer> pinned = library.pinThread(cpus);
        int errno = library.lastErrno();
        if (pinned.ok()) {
            return AffinityResult.applied(cpus);
        }
        String reason = switch (pinned.status()) {
            case CPU_NOT_ALLOWED -> "CPU " + pinned.value() + " is not in this process's allowed set "
                    + allowedCpus().map(CpuSet::toString).orElse("?") + " (cgroup cpuset or taskset)";
            default -> pinned.status().description() + (errno != 0 ? " (errno " + errno + ")" : "");
        };
        return AffinityResult.fellBack(cpus, pinned.status(), reason);
    }

    /**
     * The calling thread's scheduling class, real-time priority and nice value as the kernel reports them,
     * or empty without the library.
     */
    public Optional<ThreadPriority> currentThreadPriority() {
        return ThreadScheduling.read(library);
    }

    /** The priorities the kernel accepts for {@code schedClass} ({@code sched_get_priority_min/max}), or empty if unknown. */
    public Optional<PriorityRange> priorityRange(SchedClass schedClass) {
        if (schedClass == null) {
            throw new NullPointerException("schedClass");
        }
        if (!library.available() || schedClass == SchedClass.UNKNOWN) {
            return Optional.empty();
        }
        Reading<int[]> range = library.priorityRange(schedClass.code());
        return range.ok() ? Optional.of(new PriorityRange(range.value()[0], range.value()[1])) : Optional.empty();
    }

    /** The binding, for {@link ThreadScheduling}: the scheduling calls live there, not in this door's public face. */
    AffinityLibrary library() {
        return library;
    }

    /** "liblanehost_affinity is not loaded: " and the first line of the loader's reason. */
    String notLoaded() {
        return "liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason());
    }

    /** The machine's topology from {@code /sys} and this process's allowed set; {@link Topology#unavailable} with the reason if unreadable. */
    public Topology topology() {
        if (!library.available()) {
            return Topology.unavailable("liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason()));
        }
        Optional<CpuSet> allowed = allowedCpus();
        return read(null, "/sys", allowed.orElse(CpuSet.empty()));
    }

    /**
     * The topology of a sysfs tree rooted elsewhere: a test fixture shaped like a machine this one is not.
     *
     * @param allowed the allowed set to pretend the process has
     */
    public Topology topology(Path sysfsRoot, CpuSet allowed) {
        if (!library.available()) {
            return Topology.unavailable("liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason()));
        }
        return read(sysfsRoot.toString(), sysfsRoot.toString(), allowed);
    }

    /** The page size {@link #bindToNode} works in; allocate with this alignment. 4096 when unknown. */
    public long pageSize() {
        if (library.available()) {
            Reading<Long> size = library.pageSize();
            if (size.ok()) {
                return size.value();
            }
        }
        return 4096;
    }

    /**
     * Asks that the pages of {@code memory} come from NUMA node {@code node} when possible (MPOL_PREFERRED:
     * best effort, like the thread's affinity). Call it before the memory is first written; pages already
     * touched stay where they are. {@code memory} must start on a page boundary.
     */
    public MemoryBinding bindToNode(MemorySegment memory, int node) {
        if (!library.available()) {
            return new MemoryBinding(node, AffinityStatus.UNSUPPORTED, "liblanehost_affinity is not loaded: " + firstLine(library.unavailableReason()));
        }
        if (!memory.isNative()) {
            return new MemoryBinding(node, AffinityStatus.INVALID_ARGUMENT, "a heap segment cannot be bound to a node: allocate it from an Arena");
        }
        AffinityStatus status = library.bindMemory(memory, node, 0);
        int errno = library.lastErrno();
        String reason = switch (status) {
            case OK -> "bound";
            case MISALIGNED -> "address 0x" + Long.toHexString(memory.address()) + " is not on a " + pageSize()
                    + "-byte page boundary: allocate with arena.allocate(size, " + pageSize() + ")";
            case UNKNOWN_NODE -> "NUMA node " + node + " is not online here (or not in this cpuset's memory nodes)";
            default -> status.description() + (errno != 0 ? " (errno " + errno + ")" : "");
        };
        return new MemoryBinding(node, status, reason);
    }

    /** The NUMA node holding the (already written) page at the start of {@code memory}, or empty. */
    public OptionalInt nodeOf(MemorySegment memory) {
        if (!library.available() || !memory.isNative()) {
            return OptionalInt.empty();
        }
        Reading<Integer> node = library.memoryNode(memory);
        return node.ok() ? OptionalInt.of(node.value()) : OptionalInt.empty();
    }

    private Topology read(String root, String source, CpuSet allowed) {
        Reading<List<CpuRecord>> records = library.topology(root);
        if (!records.ok()) {
            return Topology.unavailable("reading " + source + " failed: " + failure(records.status()));
        }
        Reading<CpuSet> nodes = library.numaNodes(root);
        if (!nodes.ok()) {
            return Topology.unavailable("reading the NUMA nodes of " + source + " failed: " + failure(nodes.status()));
        }
        return Topology.fromRecords(source, records.value(), nodes.value(), allowed);
    }

    /** The status, then what C says about it (the file and its problem, the errno); read right after the call. */
    private String failure(AffinityStatus status) {
        int errno = library.lastErrno();
        String detail = library.lastDetail();
        return status.description() + (detail.isEmpty() ? "" : ": " + detail) + (errno != 0 ? " (errno " + errno + ")" : "");
    }

    private Capabilities.Capability probe(String name, int capability) {
        AffinityStatus status = library.probe(capability);
        int errno = library.lastErrno();
        return new Capabilities.Capability(name, status == AffinityStatus.OK,
                status == AffinityStatus.OK ? "ok" : status.description() + (errno != 0 ? " (errno " + errno + ")" : ""));
    }

    private static Capabilities.Capability no(String name, String why) {
        return new Capabilities.Capability(name, false, why);
    }

    private static <T> Optional<T> value(Reading<T> reading) {
        return reading.ok() ? Optional.of(reading.value()) : Optional.empty();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unknown reason";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
