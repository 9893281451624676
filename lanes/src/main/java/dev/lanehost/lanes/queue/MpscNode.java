package dev.lanehost.lanes.queue;

/** A node of an intrusive {@link MpscQueue}: the queued object is its own node, so queueing allocates nothing. */
public class MpscNode {
    /** Written by the producer that links the next node (release), read by the consumer (acquire). */
    volatile MpscNode next;
}
