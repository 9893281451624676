/** The C ABI for hosts seen from Java: the host function table, its handles, embedding the JVM from C. */
module dev.lanehost.nativeabi {
    requires transitive dev.lanehost.callgate;
    requires transitive dev.lanehost.lanes;
    requires transitive dev.lanehost.ring;
    requires dev.lanehost.nativeloader;

    exports dev.lanehost.nativeabi;
    // dev.lanehost.nativeabi.internal (the handle table) stays inside.
}
