/** The host program: it reads lanehost's host ABI, which brings the runtime and the call gates. */
module ${package} {
    requires dev.lanehost.nativeabi;
}
