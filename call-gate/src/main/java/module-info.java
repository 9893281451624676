/**
 * Call gates: calls into actors that return a status instead of throwing, with arguments and results as plain
 * values encoded as CBOR. Records passed through a gate must be public in an exported package, or in a package
 * opened to this module.
 */
module dev.lanehost.callgate {
    requires transitive dev.lanehost.lanes;

    exports dev.lanehost.callgate;
    exports dev.lanehost.callgate.value;
}
