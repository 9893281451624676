/** The SPSC byte ring shared by Java and C. */
module dev.lanehost.ring {
    exports dev.lanehost.ring;
}
