package dev.lanehost.affinity;

/**
 * Prints what this machine and process offer - capabilities, topology, allowed CPUs - and, given a
 * placement block as the first argument, its thread budget and resolved threads. The module's
 * five-minute sample (see README.md).
 */
public final class AffinityReport {
    private AffinityReport() {
    }

    public static void main(String[] args) {
        Affinity affinity = Affinity.system();
        System.out.println(affinity.capabilities());
        Topology topology = affinity.topology();
        System.out.println(topology);
        System.out.println("this thread runs on CPU " + affinity.currentCpu().stream().mapToObj(Integer::toString).findFirst().orElse("?")
                + ", mask " + affinity.currentThreadMask().map(CpuSet::toString).orElse("?"));
        if (args.length > 0) {
            PlacementConfig placement = PlacementConfig.parse(args[0]);
            System.out.print(placement.threadBudget());
            try {
                placement.validate(TopologyDeclaration.none(), topology);
                placement.resolve(TopologyDeclaration.none()).forEach(thread -> System.out.println("  " + thread));
            } catch (PlacementConfigException e) {
                System.out.println(e.getMessage());
            }
        }
    }
}
