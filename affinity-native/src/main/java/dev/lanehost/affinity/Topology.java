package dev.lanehost.affinity;

import dev.lanehost.affinity.internal.CpuRecordLayout.CpuRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The machine as sysfs describes it - logical CPUs, cores, L3 cache domains, NUMA nodes - and the CPUs
 * this process may use. Immutable.
 *
 * <p>Grouping rules: a core is a (package, {@code core_id}) pair, because {@code core_id} restarts in
 * every package; an L3 domain is the set of CPUs sharing one level-3 cache, keyed by the lowest of
 * them (cache ids are missing on old kernels); a NUMA node is an online {@code node<N>} with the CPUs
 * of its {@code cpulist}. Offline CPUs are listed in {@link #cpus()} but belong to no core, domain or
 * node, whatever sysfs still says of them (arm64 and powerpc keep their files): no thread can run there.
 * A node with memory and no CPUs (CXL or HBM memory) is listed with an empty CPU set: memory can be
 * bound to it, threads cannot be placed on it.
 *
 * <p>An {@linkplain #unavailable unavailable} topology (no library, no sysfs) has no CPUs and an empty
 * allowed set, and {@link #unavailableReason()} says why; placement against it falls back to unpinned.
 */
public final class Topology {
    /** One logical CPU; -1 where sysfs does not say. */
    public record LogicalCpu(int cpu, boolean online, int coreId, int packageId, int l3Id, int l3FirstCpu, int node) {
    }

    /** The hardware threads of one core. */
    public record Core(int packageId, int coreId, CpuSet cpus) {
    }

    /**
     * CPUs sharing one L3 cache.
     *
     * @param cacheId the kernel's cache id, or -1 on kernels without it
     * @param node    the NUMA node of its CPUs, or -1 if unknown or if they span nodes
     */
    public record CacheDomain(int cacheId, CpuSet cpus, int node) {
    }

    /** @param cpus its online CPUs; empty for a node with memory only */
    public record NumaNode(int id, CpuSet cpus) {
    }

    private final String source;
    private final String unavailableReason;
    private final List<LogicalCpu> cpus;
    private final List<Core> cores;
    private final List<CacheDomain> l3Domains;
    private final List<NumaNode> numaNodes;
    private final CpuSet allowed;

    private Topology(String source, String unavailableReason, List<LogicalCpu> cpus, CpuSet nodes, CpuSet allowed) {
        this.source = source;
        this.unavailableReason = unavailableReason;
        this.cpus = List.copyOf(cpus);
        this.allowed = allowed;
        Map<Long, CpuSet> coreCpus = new TreeMap<>();
        Map<Integer, CpuSet> domainCpus = new TreeMap<>();
        Map<Integer, Integer> domainIds = new TreeMap<>();
        Map<Integer, CpuSet> nodeCpus = new TreeMap<>();
        nodes.stream().forEach(node -> nodeCpus.put(node, CpuSet.empty()));
        for (LogicalCpu cpu : cpus) {
            if (!cpu.online()) {
                continue; // whatever ids it carries, a thread placed by them would never run
            }
            CpuSet one = CpuSet.of(cpu.cpu());
            if (cpu.coreId() >= 0 && cpu.packageId() >= 0) {
                coreCpus.merge(((long) cpu.packageId() << 32) | cpu.coreId(), one, CpuSet::union);
            }
            if (cpu.l3FirstCpu() >= 0) {
                domainCpus.merge(cpu.l3FirstCpu(), one, CpuSet::union);
                domainIds.putIfAbsent(cpu.l3FirstCpu(), cpu.l3Id());
            }
            if (cpu.node() >= 0) {
                nodeCpus.merge(cpu.node(), one, CpuSet::union);
            }
        }
        List<Core> coreList = new ArrayList<>();
        coreCpus.forEach((key, set) -> coreList.add(new Core((int) (key >>> 32), (int) (long) key, set)));
        coreList.sort(Comparator.comparingInt(core -> core.cpus().first()));
        this.cores = List.copyOf(coreList);
        List<NumaNode> nodeList = new ArrayList<>();
        nodeCpus.forEach((id, set) -> nodeList.add(new NumaNode(id, set)));
        this.numaNodes = List.copyOf(nodeList);
        List<CacheDomain> domainList = new ArrayList<>();
        domainCpus.forEach((first, set) -> domainList.add(new CacheDomain(domainIds.get(first), set,
                nodeList.stream().filter(node -> node.cpus().containsAll(set)).mapToInt(NumaNode::id).findFirst().orElse(-1))));
        this.l3Domains = List.copyOf(domainList);
    }

    /** @param nodes the online NUMA nodes, those without CPUs included */
    static Topology fromRecords(String source, List<CpuRecord> records, CpuSet nodes, CpuSet allowed) {
        List<LogicalCpu> cpus = records.stream()
                .map(r -> new LogicalCpu(r.cpu(), r.online(), r.coreId(), r.packageId(), r.l3Id(), r.l3FirstCpu(), r.node()))
                .toList();
        return new Topology(source, null, cpus, nodes, allowed);
    }

    /** A topology that knows nothing, with the reason. */
    public static Topology unavailable(String reason) {
        return new Topology("unavailable", reason, List.of(), CpuSet.empty(), CpuSet.empty());
    }

    /**
     * A topology described in code rather than read (for tests and simulations); its NUMA nodes are
     * those its online CPUs name.
     *
     * @param allowed the CPUs the process may use
     */
    public static Topology of(String source, List<LogicalCpu> cpus, CpuSet allowed) {
        return new Topology(source, null, cpus, CpuSet.empty(), allowed);
    }

    public boolean available() {
        return unavailableReason == null;
    }

    /** Why nothing is known, or null. */
    public String unavailableReason() {
        return unavailableReason;
    }

    /** Where it was read from: {@code /sys}, a fixture directory, or {@code unavailable}. */
    public String source() {
        return source;
    }

    public List<LogicalCpu> cpus() {
        return cpus;
    }

    /** Every CPU that exists and is online. */
    public CpuSet onlineCpus() {
        return CpuSet.of(cpus.stream().filter(LogicalCpu::online).mapToInt(LogicalCpu::cpu).toArray());
    }

    public List<Core> cores() {
        return cores;
    }

    public List<CacheDomain> l3Domains() {
        return l3Domains;
    }

    /** Every online node, in id order, memory-only ones with no CPUs; empty on a kernel without NUMA support. */
    public List<NumaNode> numaNodes() {
        return numaNodes;
    }

    public Optional<NumaNode> numaNode(int id) {
        return numaNodes.stream().filter(node -> node.id() == id).findFirst();
    }

    /** The CPUs this process may use (the cgroup cpuset, taskset), a subset of {@link #onlineCpus()}. */
    public CpuSet allowed() {
        return allowed;
    }

    /** A summary for humans. */
    @Override
    public String toString() {
        if (!available()) {
            return "topology unavailable: " + unavailableReason;
        }
        StringBuilder text = new StringBuilder("topology from ").append(source).append(": ")
                .append(cpus.size()).append(" CPUs (online ").append(onlineCpus()).append("), allowed ").append(allowed)
                .append(", ").append(cores.size()).append(" cores\n");
        for (CacheDomain domain : l3Domains) {
            text.append("  L3 ").append(domain.cacheId() >= 0 ? "id " + domain.cacheId() : "(no id)").append(": CPUs ")
                    .append(domain.cpus()).append(domain.node() >= 0 ? ", node " + domain.node() : "").append('\n');
        }
        if (numaNodes.isEmpty()) {
            text.append("  NUMA: not described (kernel without NUMA support)\n");
        }
        for (NumaNode node : numaNodes) {
            text.append("  node ").append(node.id()).append(": ")
                    .append(node.cpus().isEmpty() ? "no CPUs (memory only)" : "CPUs " + node.cpus()).append('\n');
        }
        return text.toString();
    }
}
