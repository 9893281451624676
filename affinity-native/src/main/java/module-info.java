/** CPU affinity, topology and NUMA memory: what the machine is and where each runtime thread should run. */
module dev.lanehost.affinity {
    requires dev.lanehost.nativeloader;

    exports dev.lanehost.affinity;
    // dev.lanehost.affinity.internal (the C bindings and the sysfs reader) stays inside.
}
