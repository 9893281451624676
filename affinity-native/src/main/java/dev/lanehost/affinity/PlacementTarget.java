package dev.lanehost.affinity;

import java.util.OptionalInt;

/**
 * Where a placement entry's thread may run: raw cores, a declared NUMA node, a declared
 * L3 domain, or anywhere. Written as in the configuration: {@code core = 1}, {@code cores = 4..8},
 * {@code cores = 4..=7}, {@code cores = {4, 5, 6, 7}}, {@code node = 0}, {@code l3 = fast}.
 */
public sealed interface PlacementTarget {
    PlacementTarget ANYWHERE = new Anywhere();

    /** No affinity: the OS schedules the thread freely. */
    record Anywhere() implements PlacementTarget {
        @Override
        public String toString() {
            return "";
        }
    }

    /** A core set; one core is {@code core = N}. */
    record Cores(CpuSet cpus) implements PlacementTarget {
        public Cores {
            if (cpus.isEmpty()) {
                throw new IllegalArgumentException("cores = {} names no core");
            }
        }

        @Override
        public String toString() {
            return cpus.size() == 1 ? "core = " + cpus.first() : "cores = " + cpus.toRangeString();
        }
    }

    /** The cores of a declared node; memory co-located on that node. */
    record Node(int id) implements PlacementTarget {
        public Node {
            if (id < 0) {
                throw new IllegalArgumentException("node = " + id + ": node ids are numbered from 0");
            }
        }

        @Override
        public String toString() {
            return "node = " + id;
        }
    }

    /** The cores of a declared L3 domain; memory on the node that declares it. */
    record L3(String name) implements PlacementTarget {
        @Override
        public String toString() {
            return "l3 = " + name;
        }
    }

    static PlacementTarget cores(String cores) {
        return new Cores(CpuSet.parse(cores));
    }

    static PlacementTarget core(int core) {
        return new Cores(CpuSet.of(core));
    }

    static PlacementTarget node(int id) {
        return new Node(id);
    }

    static PlacementTarget l3(String name) {
        return new L3(name);
    }

    /**
     * Parses one {@code key = value} target; blank text is {@link #ANYWHERE}.
     *
     * @throws IllegalArgumentException naming the unknown key or bad value
     */
    static PlacementTarget parse(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return ANYWHERE;
        }
        int equals = trimmed.indexOf('=');
        if (equals < 0) {
            throw new IllegalArgumentException("placement target '" + text + "': expected key = value (core, cores, node or l3)");
        }
        String key = trimmed.substring(0, equals).strip();
        String value = trimmed.substring(equals + 1).strip();
        return switch (key) {
            case "core" -> new Cores(CpuSet.of(integer(key, value)));
            case "cores" -> new Cores(CpuSet.parse(value));
            case "node" -> new Node(integer(key, value));
            case "l3" -> new L3(value);
            default -> throw new IllegalArgumentException("placement target '" + text + "': unknown key '" + key + "' (expected core, cores, node or l3)");
        };
    }

    /**
     * The cores this target means under a declaration.
     *
     * @throws IllegalArgumentException if the target names a node or L3 domain the declaration lacks
     */
    default CpuSet resolve(TopologyDeclaration declared) {
        return switch (this) {
            case Anywhere anywhere -> CpuSet.empty();
            case Cores cores -> cores.cpus();
            case Node node -> declared.coresOfNode(node.id()).orElseThrow(() -> new IllegalArgumentException(
                    "node = " + node.id() + " names a node the topology does not declare (declared: " + declared.nodeIds() + ")"));
            case L3 l3 -> declared.l3Domain(l3.name()).map(TopologyDeclaration.L3Domain::cores).orElseThrow(() -> new IllegalArgumentException(
                    "l3 = " + l3.name() + " names an L3 domain the topology does not declare (declared: "
                    + declared.l3Domains().stream().map(TopologyDeclaration.L3Domain::name).toList() + ")"));
        };
    }

    /** The NUMA node whose memory the thread's arena should use (co-location), if the target implies one. */
    default OptionalInt memoryNode(TopologyDeclaration declared) {
        return switch (this) {
            case Node node -> OptionalInt.of(node.id());
            case L3 l3 -> declared.nodeOfL3(l3.name());
            default -> OptionalInt.empty();
        };
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " = " + value + ": expected a number");
        }
    }
}
