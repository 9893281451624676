/** lanehost's samples and main demo: a frame loop, an audio ring, JACK hosts, the combined demo. */
module dev.lanehost.samples {
    requires dev.lanehost.nativeabi;
    // The samples unpack their own C host libraries from their jar with lanehost's loader.
    requires dev.lanehost.nativeloader;
    requires java.management;
    requires jdk.management;
    requires java.desktop;
    requires org.knowm.xchart;

    exports dev.lanehost.samples;
}
