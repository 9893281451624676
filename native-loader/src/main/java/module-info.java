/**
 * Loads lanehost's shared libraries (explicit path, bundled copy, system path) with one ABI check. Internal to
 * lanehost: exported only to the modules that bundle a library.
 */
module dev.lanehost.nativeloader {
    // UnixSystem: the owner check of the private extraction directory.
    requires jdk.security.auth;

    exports dev.lanehost.nativeloader to dev.lanehost.affinity, dev.lanehost.nativeabi, dev.lanehost.samples;
}
