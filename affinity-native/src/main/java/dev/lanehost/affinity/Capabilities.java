package dev.lanehost.affinity;

/**
 * What this process can do here, each answer with its reason: the platform, whether the native library
 * loaded, hard CPU affinity, NUMA memory binding, reading the current CPU, reading the topology.
 * Every capability is probed by really calling the system call it depends on (a harmless form of it),
 * so a seccomp filter in a container shows up here, not as a failure later.
 *
 * @param platform     e.g. {@code linux-x86_64}
 * @param library      whether {@code liblanehost_affinity} loaded (the reason lists what the loader tried)
 * @param hardAffinity {@code sched_setaffinity} works: a pinned thread runs only on its CPUs
 * @param numaBinding  {@code mbind} works
 * @param currentCpu   {@code getcpu} works
 * @param topology     {@code /sys/devices/system/cpu} is readable
 */
public record Capabilities(String platform, Capability library, Capability hardAffinity, Capability numaBinding,
                           Capability currentCpu, Capability topology) {

    /**
     * One yes/no answer.
     *
     * @param reason why not; {@code "ok"} when available
     */
    public record Capability(String name, boolean available, String reason) {
        @Override
        public String toString() {
            return name + ": " + (available ? "yes" : "no (" + reason + ")");
        }
    }

    /** A report for humans, one capability a line. */
    @Override
    public String toString() {
        return "platform: " + platform + "\n" + library + "\n" + hardAffinity + "\n" + numaBinding + "\n" + currentCpu + "\n" + topology;
    }
}
