package dev.lanehost.affinity.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.affinity.AffinityStatus;
import dev.lanehost.affinity.CpuSet;
import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeAccess;
import dev.lanehost.nativeloader.NativeLibraryException;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Java's binding of {@code liblanehost_affinity} ({@code lanehost_affinity.h}): one downcall handle per
 * C function, resolved once when the library loads.
 *
 * <p>Loading never throws. If the loader cannot find the library, or a symbol is missing, the binding
 * is {@linkplain #available() unavailable} and {@link #unavailableReason()} says why; callers turn that
 * into "unsupported" results. This is why the handles are instance fields of one object built by a
 * factory, not static finals: a static initializer that throws would leave the class unusable with a
 * {@code NoClassDefFoundError} and no reason.
 *
 * <p>Every method returns the C status; data comes back through the small result records.
 */
public final class AffinityLibrary {
    /** Must equal {@code LANEHOST_AFFINITY_ABI_VERSION}; the loader refuses a library built with another. */
    public static final int ABI_VERSION = 1;
    public static final String LIBRARY_NAME = "lanehost_affinity";

    /** {@code lanehost_affinity_capability}: what {@link #probe} can be asked about. */
    public static final int CAP_HARD_AFFINITY = 1;
    public static final int CAP_NUMA_BINDING = 2;
    public static final int CAP_CURRENT_CPU = 3;
    public static final int CAP_TOPOLOGY = 4;

    /** 1024 CPUs: enough for nearly every machine on the first call; a larger one costs one retry. */
    private static final int FIRST_MASK_WORDS = 16;

    private static final class SystemHolder {
        static final AffinityLibrary SYSTEM = load();
    }

    private final LoadedLibrary library;
    private final String unavailableReason;
    private final MethodHandle platform;
    private final MethodHandle statusText;
    private final MethodHandle lastErrno;
    private final MethodHandle lastDetail;
    private final MethodHandle probe;
    private final MethodHandle currentThreadId;
    private final MethodHandle currentCpu;
    private final MethodHandle allowedCpus;
    private final MethodHandle threadMask;
    private final MethodHandle pinThread;
    private final MethodHandle topology;
    private final MethodHandle numaNodes;
    private final MethodHandle pageSize;
    private final MethodHandle bindMemory;
    private final MethodHandle memoryNode;
    private final MethodHandle priorityRange;
    private final MethodHandle setRealtime;
    private final MethodHandle setNice;
    private final MethodHandle threadPriority;
    private final MethodHandle realtimeLimits;
    private final MethodHandle constantName;
    private final MethodHandle constantValue;

    private AffinityLibrary(LoadedLibrary library) {
        this.library = library;
        this.unavailableReason = null;
        this.platform = downcall("lanehost_affinity_platform", FunctionDescriptor.of(ADDRESS));
        this.statusText = downcall("lanehost_affinity_status_text", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        this.lastErrno = downcall("lanehost_affinity_last_errno", FunctionDescriptor.of(JAVA_INT));
        this.lastDetail = downcall("lanehost_affinity_last_detail", FunctionDescriptor.of(ADDRESS));
        this.probe = downcall("lanehost_affinity_probe", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        this.currentThreadId = downcall("lanehost_affinity_current_thread_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        this.currentCpu = downcall("lanehost_affinity_current_cpu", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.allowedCpus = downcall("lanehost_affinity_allowed_cpus", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        this.threadMask = downcall("lanehost_affinity_thread_mask", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        this.pinThread = downcall("lanehost_affinity_pin_thread", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        this.topology = downcall("lanehost_affinity_topology", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        this.numaNodes = downcall("lanehost_affinity_numa_nodes", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        this.pageSize = downcall("lanehost_affinity_page_size", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        this.bindMemory = downcall("lanehost_affinity_bind_memory", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT));
        this.memoryNode = downcall("lanehost_affinity_memory_node", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.priorityRange = downcall("lanehost_affinity_priority_range", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        this.setRealtime = downcall("lanehost_affinity_set_realtime", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        this.setNice = downcall("lanehost_affinity_set_nice", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        this.threadPriority = downcall("lanehost_affinity_thread_priority", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        this.realtimeLimits = downcall("lanehost_affinity_realtime_limits", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.constantName = downcall("lanehost_affinity_constant_name", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        this.constantValue = downcall("lanehost_affinity_constant_value", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    }

    private AffinityLibrary(String unavailableReason) {
        this.library = null;
        this.unavailableReason = unavailableReason;
        this.platform = this.statusText = this.lastErrno = this.lastDetail = this.probe = this.currentThreadId = this.currentCpu = null;
        this.allowedCpus = this.threadMask = this.pinThread = this.topology = this.numaNodes = this.pageSize = null;
        this.bindMemory = this.memoryNode = this.constantName = this.constantValue = null;
        this.priorityRange = this.setRealtime = this.setNice = this.threadPriority = this.realtimeLimits = null;
    }

    /** The binding of the library the loader finds, loaded on first use; unavailable (with the reason) if none. */
    public static AffinityLibrary system() {
        return SystemHolder.SYSTEM;
    }

    /** A binding that has no library, for a caller that wants affinity off, and for tests. */
    public static AffinityLibrary unavailable(String reason) {
        return new AffinityLibrary(reason);
    }

    static AffinityLibrary load() {
        try {
            return new AffinityLibrary(NativeLibraryLoader.load(AffinityLibrary.class, LIBRARY_NAME,
                    "lanehost_affinity_abi_version", ABI_VERSION));
        } catch (NativeLibraryException e) {
            return new AffinityLibrary(e.getMessage());
        } catch (IllegalCallerException e) {
            // The loader had native access, this module has not: its downcall handles are refused.
            return new AffinityLibrary(NativeAccess.deniedMessage("binding liblanehost_affinity", e,
                    AffinityLibrary.class.getModule(), NativeLibraryLoader.class.getModule()));
        } catch (RuntimeException | LinkageError e) {
            // A missing symbol (NoSuchElementException), ...
            return new AffinityLibrary("liblanehost_affinity could not be bound: " + e);
        }
    }

    public boolean available() {
        return library != null;
    }

    /** Why the library is unavailable, or null when it is available. */
    public String unavailableReason() {
        return unavailableReason;
    }

    /** Where the library was loaded from and by which loader step; null when unavailable. */
    public LoadedLibrary library() {
        return library;
    }

    public String platform() {
        return available() ? string(() -> (MemorySegment) platform.invokeExact()) : NativeLibraryLoader.platform();
    }

    public String statusText(int status) {
        return string(() -> (MemorySegment) statusText.invokeExact(status));
    }

    /** errno of the last failed system call of this library on this thread (valid right after a call). */
    public int lastErrno() {
        return call(() -> (int) lastErrno.invokeExact());
    }

    /**
     * What the last call of this library on this thread found wrong beyond its status (the sysfs file and
     * its problem for a MALFORMED topology), or "" (valid right after a call).
     */
    public String lastDetail() {
        return string(() -> (MemorySegment) lastDetail.invokeExact());
    }

    public AffinityStatus probe(int capability) {
        return status(call(() -> (int) probe.invokeExact(capability)));
    }

    /** A value, or the status saying why there is none. */
    public record Reading<T>(AffinityStatus status, T value) {
        public boolean ok() {
            return status == AffinityStatus.OK;
        }
    }

    public Reading<Long> currentThreadId() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tid = arena.allocate(JAVA_LONG);
            AffinityStatus status = status(call(() -> (int) currentThreadId.invokeExact(tid)));
            return new Reading<>(status, status == AffinityStatus.OK ? tid.get(JAVA_LONG, 0) : null);
        }
    }

    /** The CPU the calling thread is on and its node: {@code int[] {cpu, node}}. */
    public Reading<int[]> currentCpu() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cpu = arena.allocate(JAVA_INT);
            MemorySegment node = arena.allocate(JAVA_INT);
            AffinityStatus status = status(call(() -> (int) currentCpu.invokeExact(cpu, node)));
            return new Reading<>(status, status == AffinityStatus.OK ? new int[] {cpu.get(JAVA_INT, 0), node.get(JAVA_INT, 0)} : null);
        }
    }

    public Reading<CpuSet> allowedCpus() {
        return readMask((mask, count, needed) -> (int) allowedCpus.invokeExact(mask, count, needed));
    }

    public Reading<CpuSet> threadMask() {
        return readMask((mask, count, needed) -> (int) threadMask.invokeExact(mask, count, needed));
    }

    /** Pins the calling thread. On CPU_NOT_ALLOWED the value is the first refused CPU, else -1. */
    public Reading<Integer> pinThread(CpuSet cpus) {
        long[] words = cpus.toWords();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(JAVA_LONG, Math.max(1, words.length));
            MemorySegment.copy(words, 0, mask, JAVA_LONG, 0, words.length);
            MemorySegment refused = arena.allocate(JAVA_INT);
            int count = Math.max(1, words.length);
            AffinityStatus status = status(call(() -> (int) pinThread.invokeExact(mask, count, refused)));
            return new Reading<>(status, refused.get(JAVA_INT, 0));
        }
    }

    /** The topology records under {@code sysfsRoot} (null: {@code /sys}), ordered by CPU. */
    public Reading<List<CpuRecordLayout.CpuRecord>> topology(String sysfsRoot) {
        int capacity = 256;
        for (int attempt = 0; attempt < 2; attempt++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment root = sysfsRoot == null ? MemorySegment.NULL : arena.allocateFrom(sysfsRoot);
                MemorySegment records = arena.allocate(CpuRecordLayout.LAYOUT, capacity);
                MemorySegment count = arena.allocate(JAVA_INT);
                int slots = capacity;
                AffinityStatus status = status(call(() -> (int) topology.invokeExact(root, records, slots, count)));
                if (status == AffinityStatus.BUFFER_TOO_SMALL && count.get(JAVA_INT, 0) > slots) {
                    capacity = count.get(JAVA_INT, 0); // the C side says how many CPUs there are
                    continue;
                }
                if (status != AffinityStatus.OK) {
                    return new Reading<>(status, null);
                }
                List<CpuRecordLayout.CpuRecord> result = new ArrayList<>();
                for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
                    result.add(CpuRecordLayout.read(records, i));
                }
                return new Reading<>(status, List.copyOf(result));
            }
        }
        return new Reading<>(AffinityStatus.BUFFER_TOO_SMALL, null);
    }

    /** The online NUMA nodes under {@code sysfsRoot} (null: {@code /sys}), memory-only ones included; empty without NUMA. */
    public Reading<CpuSet> numaNodes(String sysfsRoot) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment root = sysfsRoot == null ? MemorySegment.NULL : arena.allocateFrom(sysfsRoot);
            return readMask((mask, count, needed) -> (int) numaNodes.invokeExact(root, mask, count, needed));
        }
    }

    public Reading<Long> pageSize() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            AffinityStatus status = status(call(() -> (int) pageSize.invokeExact(size)));
            return new Reading<>(status, status == AffinityStatus.OK ? size.get(JAVA_LONG, 0) : null);
        }
    }

    public AffinityStatus bindMemory(MemorySegment memory, int node, int flags) {
        return status(call(() -> (int) bindMemory.invokeExact(memory, memory.byteSize(), node, flags)));
    }

    public Reading<Integer> memoryNode(MemorySegment address) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment node = arena.allocate(JAVA_INT);
            AffinityStatus status = status(call(() -> (int) memoryNode.invokeExact(address, node)));
            return new Reading<>(status, status == AffinityStatus.OK ? node.get(JAVA_INT, 0) : null);
        }
    }

    /** The priorities the kernel accepts for a {@code SchedClass} code: {@code int[] {min, max}}. */
    public Reading<int[]> priorityRange(int schedClass) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment min = arena.allocate(JAVA_INT);
            MemorySegment max = arena.allocate(JAVA_INT);
            AffinityStatus status = status(call(() -> (int) priorityRange.invokeExact(schedClass, min, max)));
            return new Reading<>(status, status == AffinityStatus.OK ? new int[] {min.get(JAVA_INT, 0), max.get(JAVA_INT, 0)} : null);
        }
    }

    /** Puts the calling thread in real-time class {@code schedClass} (FIFO or RR) at {@code priority}; read back by C. */
    public AffinityStatus setRealtime(int schedClass, int priority) {
        return status(call(() -> (int) setRealtime.invokeExact(schedClass, priority)));
    }

    /** Sets the calling thread's nice value; read back by C. */
    public AffinityStatus setNice(int nice) {
        return status(call(() -> (int) setNice.invokeExact(nice)));
    }

    /** The calling thread's scheduling as the kernel reports it: {@code int[] {class, priority, nice}}. */
    public Reading<int[]> threadPriority() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment schedClass = arena.allocate(JAVA_INT);
            MemorySegment priority = arena.allocate(JAVA_INT);
            MemorySegment nice = arena.allocate(JAVA_INT);
            AffinityStatus status = status(call(() -> (int) threadPriority.invokeExact(schedClass, priority, nice)));
            return new Reading<>(status, status == AffinityStatus.OK
                    ? new int[] {schedClass.get(JAVA_INT, 0), priority.get(JAVA_INT, 0), nice.get(JAVA_INT, 0)} : null);
        }
    }

    /** RLIMIT_RTPRIO (-1: unlimited) and whether CAP_SYS_NICE is effective (1 or 0): {@code long[] {limit, cap}}. */
    public Reading<long[]> realtimeLimits() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limit = arena.allocate(JAVA_LONG);
            MemorySegment capability = arena.allocate(JAVA_INT);
            AffinityStatus status = status(call(() -> (int) realtimeLimits.invokeExact(limit, capability)));
            return new Reading<>(status, status == AffinityStatus.OK
                    ? new long[] {limit.get(JAVA_LONG, 0), capability.get(JAVA_INT, 0)} : null);
        }
    }

    /** Every entry of the C constants report, in the header's order: name to value. */
    public Map<String, Long> constants() {
        Map<String, Long> constants = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment found = arena.allocate(JAVA_INT);
            for (int index = 0; ; index++) {
                int at = index;
                MemorySegment name = call(() -> (MemorySegment) constantName.invokeExact(at));
                if (name.equals(MemorySegment.NULL)) {
                    return constants;
                }
                long value = call(() -> (long) constantValue.invokeExact(name, found));
                constants.put(name.reinterpret(Long.MAX_VALUE).getString(0), value);
            }
        }
    }

    /** A C function of the shape {@code status fn(uint64_t *words, uint32_t word_count, uint32_t *words_needed)}. */
    @FunctionalInterface
    private interface MaskCall {
        int invoke(MemorySegment mask, int wordCount, MemorySegment wordsNeeded) throws Throwable;
    }

    private Reading<CpuSet> readMask(MaskCall handle) {
        int words = FIRST_MASK_WORDS;
        for (int attempt = 0; attempt < 2; attempt++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment mask = arena.allocate(JAVA_LONG, words);
                MemorySegment needed = arena.allocate(JAVA_INT);
                int count = words;
                AffinityStatus status = status(call(() -> handle.invoke(mask, count, needed)));
                if (status == AffinityStatus.BUFFER_TOO_SMALL && needed.get(JAVA_INT, 0) > count) {
                    words = needed.get(JAVA_INT, 0);
                    continue;
                }
                return new Reading<>(status, status == AffinityStatus.OK
                        ? CpuSet.fromWords(mask.toArray(JAVA_LONG)) : null);
            }
        }
        return new Reading<>(AffinityStatus.BUFFER_TOO_SMALL, null);
    }

    private MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(library.lookup().findOrThrow(name), descriptor);
    }

    private static AffinityStatus status(int code) {
        return AffinityStatus.fromCode(code);
    }

    @FunctionalInterface
    private interface NativeCall<T> {
        T invoke() throws Throwable;
    }

    private void requireAvailable() {
        if (library == null) {
            throw new IllegalStateException("liblanehost_affinity is not loaded: " + unavailableReason);
        }
    }

    private <T> T call(NativeCall<T> downcall) {
        requireAvailable();
        try {
            return downcall.invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("downcall into liblanehost_affinity failed", e); // invokeExact declares Throwable
        }
    }

    private String string(NativeCall<MemorySegment> downcall) {
        return call(downcall).reinterpret(Long.MAX_VALUE).getString(0);
    }
}
