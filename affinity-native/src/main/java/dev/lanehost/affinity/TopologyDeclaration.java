package dev.lanehost.affinity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The host's core partition as the deployment declares it (a {@code topology { }} block built in code):
 * reserved cores, NUMA nodes, and named L3 domains inside them. Placement entries then say
 * {@code l3 = fast} or {@code node = 0} instead of raw core numbers.
 *
 * <pre>{@code
 * TopologyDeclaration topology = TopologyDeclaration.builder()
 *         .reserve("0..2")                                          // hands-off for the OS / main
 *         .node(0, node -> node.l3("fast", "4..8").l3("slow", "8..12"))
 *         .node(1, node -> node.l3("heavy", "12..16"))
 *         .build();
 * }</pre>
 *
 * <p>Rules, checked by {@link Builder#build()} (all problems reported at once): node ids are unique;
 * L3 names are unique identifiers; a core belongs to at most one domain; a domain claims no reserved
 * core; a domain has at least one core. A node's cores are the union of its domains. "Core" means a
 * logical CPU number, as {@code taskset} counts.
 *
 * <p>The declaration is a claim about the machine; {@link #checkAgainst(Topology)} compares it with the
 * real one and returns warnings, since a config written for the production box still has to start on
 * a laptop.
 */
public final class TopologyDeclaration {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final TopologyDeclaration NONE = new TopologyDeclaration(CpuSet.empty(), Map.of(), Map.of());

    /** One named L3 domain. */
    public record L3Domain(String name, int node, CpuSet cores) {
    }

    private final CpuSet reserved;
    private final Map<Integer, CpuSet> nodes;        // node id -> union of its domains, in declaration order
    private final Map<String, L3Domain> domains;     // by name, in declaration order

    private TopologyDeclaration(CpuSet reserved, Map<Integer, CpuSet> nodes, Map<String, L3Domain> domains) {
        this.reserved = reserved;
        this.nodes = nodes;
        this.domains = domains;
    }

    /** A declaration that declares nothing: only raw-core placement targets resolve against it. */
    public static TopologyDeclaration none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    public CpuSet reserved() {
        return reserved;
    }

    public List<Integer> nodeIds() {
        return List.copyOf(nodes.keySet());
    }

    public List<L3Domain> l3Domains() {
        return List.copyOf(domains.values());
    }

    public Optional<L3Domain> l3Domain(String name) {
        return Optional.ofNullable(domains.get(name));
    }

    /** The cores of node {@code id} (the union of its L3 domains), or empty if not declared. */
    public Optional<CpuSet> coresOfNode(int id) {
        return Optional.ofNullable(nodes.get(id));
    }

    /** The node declaring L3 domain {@code name}. */
    public OptionalInt nodeOfL3(String name) {
        L3Domain domain = domains.get(name);
        return domain == null ? OptionalInt.empty() : OptionalInt.of(domain.node());
    }

    /**
     * Compares the declaration with the machine. Empty when they agree; otherwise one warning per
     * mismatch: cores that are not online here, domains that straddle real L3 caches, nodes whose cores
     * sit on another real node.
     */
    public List<String> checkAgainst(Topology real) {
        List<String> warnings = new ArrayList<>();
        if (!real.available()) {
            warnings.add("the declared topology cannot be checked: " + real.unavailableReason());
            return warnings;
        }
        CpuSet online = real.onlineCpus();
        CpuSet missingReserved = reserved.minus(online);
        if (!missingReserved.isEmpty()) {
            warnings.add("reserved core(s) " + missingReserved + " do not exist on this machine (online: " + online + ")");
        }
        for (L3Domain domain : domains.values()) {
            CpuSet missing = domain.cores().minus(online);
            if (!missing.isEmpty()) {
                warnings.add("L3 domain '" + domain.name() + "' declares core(s) " + missing
                        + " that do not exist on this machine (online: " + online + ")");
            }
            CpuSet present = domain.cores().intersection(online);
            boolean withinOne = present.isEmpty() || real.l3Domains().isEmpty()
                    || real.l3Domains().stream().anyMatch(cache -> cache.cpus().containsAll(present));
            if (!withinOne) {
                StringBuilder caches = new StringBuilder();
                real.l3Domains().stream().filter(cache -> cache.cpus().intersects(present))
                        .forEach(cache -> caches.append(caches.isEmpty() ? "" : " and ").append(cache.cpus()));
                warnings.add("L3 domain '" + domain.name() + "' (" + domain.cores() + ") spans several real L3 caches: " + caches);
            }
        }
        for (Map.Entry<Integer, CpuSet> node : nodes.entrySet()) {
            CpuSet present = node.getValue().intersection(online);
            if (present.isEmpty() || real.numaNodes().isEmpty()) {
                continue; // missing cores were reported above; a kernel without NUMA has nothing to compare
            }
            Optional<Topology.NumaNode> realNode = real.numaNode(node.getKey());
            if (realNode.isEmpty()) {
                warnings.add("node " + node.getKey() + " is declared but this machine has no NUMA node " + node.getKey());
            } else if (!realNode.get().cpus().containsAll(present)) {
                CpuSet held = realNode.get().cpus();
                warnings.add("node " + node.getKey() + " declares core(s) " + present.minus(held) + " that are on another NUMA node here ("
                        + (held.isEmpty() ? "node " + node.getKey() + " has memory but no CPUs" : "node " + node.getKey() + " holds " + held) + ")");
            }
        }
        return warnings;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("topology {\n");
        if (!reserved.isEmpty()) {
            text.append("    reserve cores ").append(reserved.toRangeString()).append(";\n");
        }
        for (Integer node : nodes.keySet()) {
            text.append("    node ").append(node).append(" {\n");
            for (L3Domain domain : domains.values()) {
                if (domain.node() == node) {
                    text.append("        l3 ").append(domain.name()).append(" { cores ").append(domain.cores().toRangeString()).append("; }\n");
                }
            }
            text.append("    }\n");
        }
        return text.append("}").toString();
    }

    /** Collects declarations; {@link #build()} validates them all at once. */
    public static final class Builder {
        private CpuSet reserved = CpuSet.empty();
        private final List<Integer> nodeOrder = new ArrayList<>();
        private final List<L3Domain> declared = new ArrayList<>();

        private Builder() {
        }

        /** Cores held back for the OS and main; a domain may not claim one. */
        public Builder reserve(CpuSet cores) {
            reserved = reserved.union(cores);
            return this;
        }

        /** @see CpuSet#parse */
        public Builder reserve(String cores) {
            return reserve(CpuSet.parse(cores));
        }

        public Builder node(int id, Consumer<NodeBuilder> domains) {
            nodeOrder.add(id);
            domains.accept(new NodeBuilder(id));
            return this;
        }

        /**
         * @throws PlacementConfigException listing every problem
         */
        public TopologyDeclaration build() {
            List<String> problems = new ArrayList<>();
            List<Integer> seenNodes = new ArrayList<>();
            for (Integer id : nodeOrder) {
                if (id < 0) {
                    problems.add("node id " + id + " is negative");
                } else if (seenNodes.contains(id)) {
                    problems.add("node " + id + " is declared twice");
                } else {
                    seenNodes.add(id);
                }
            }
            Map<String, L3Domain> domains = new LinkedHashMap<>();
            Map<Integer, String> owner = new LinkedHashMap<>();
            for (L3Domain domain : declared) {
                if (!IDENTIFIER.matcher(domain.name()).matches()) {
                    problems.add("L3 domain name '" + domain.name() + "' is not an identifier (letters, digits, _; not starting with a digit)");
                }
                L3Domain earlier = domains.putIfAbsent(domain.name(), domain);
                if (earlier != null) {
                    problems.add("L3 domain '" + domain.name() + "' is declared twice (in node " + earlier.node() + " and node " + domain.node()
                            + "); names must be unique so l3 = " + domain.name() + " is unambiguous");
                    continue;
                }
                if (domain.cores().isEmpty()) {
                    problems.add("L3 domain '" + domain.name() + "' has no cores");
                }
                CpuSet claimed = domain.cores().intersection(reserved);
                if (!claimed.isEmpty()) {
                    problems.add("L3 domain '" + domain.name() + "' claims reserved core(s) " + claimed);
                }
                for (int core : domain.cores().toArray()) {
                    String other = owner.putIfAbsent(core, domain.name());
                    if (other != null) {
                        problems.add("core " + core + " is in two L3 domains: '" + other + "' and '" + domain.name() + "'");
                    }
                }
            }
            if (!problems.isEmpty()) {
                throw new PlacementConfigException("invalid topology declaration", problems);
            }
            Map<Integer, CpuSet> nodes = new LinkedHashMap<>();
            for (Integer id : seenNodes) {
                nodes.put(id, CpuSet.empty());
            }
            for (L3Domain domain : domains.values()) {
                nodes.merge(domain.node(), domain.cores(), CpuSet::union);
            }
            return new TopologyDeclaration(reserved, Collections.unmodifiableMap(nodes), Collections.unmodifiableMap(domains));
        }

        /** The domains of one node. */
        public final class NodeBuilder {
            private final int node;

            private NodeBuilder(int node) {
                this.node = node;
            }

            public NodeBuilder l3(String name, CpuSet cores) {
                declared.add(new L3Domain(name, node, cores));
                return this;
            }

            /** @see CpuSet#parse */
            public NodeBuilder l3(String name, String cores) {
                return l3(name, CpuSet.parse(cores));
            }
        }
    }
}
