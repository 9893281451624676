package dev.lanehost.lanes.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An intrusive multi-producer single-consumer FIFO (Dmitry Vyukov's non-blocking MPSC queue) that also
 * counts what passed through it: any thread may {@link #offer}; one consumer at a time may {@link #poll};
 * any thread may read {@link #size}. A node may be offered again once polled.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>A producer counts the offer, then swaps itself in as the tail (one atomic exchange, so producers
 *       never retry), then links the previous tail to itself.</li>
 *   <li>Between those two steps the queue is momentarily unlinked: {@link #poll} then returns null
 *       although {@link #isEmpty} is false. Callers treat that as "come back shortly", never as
 *       "empty".</li>
 *   <li>The consumer counts each node it hands out. {@link #size} is offers minus polls: counted before
 *       the node is reachable, so it never runs behind what the consumer can take.</li>
 * </ol>
 *
 * <h2>Layout</h2>
 * The fields sit in a chain of classes, as JCTools lays out its queues, because the JVM keeps a
 * superclass's fields ahead of a subclass's and never interleaves them:
 * <pre>
 *   MpscQueueColdFields      stub                      (written once, read by both sides)
 *   MpscQueuePadBeforeHead   128 bytes
 *   MpscQueueConsumerFields  head, polled              (written by the consumer only)
 *   MpscQueuePadBeforeTail   128 bytes
 *   MpscQueueProducerFields  tail, offered             (written by every producer)
 *   MpscQueue                128 bytes
 * </pre>
 * So a producer's exchange on the tail never invalidates the line the consumer reads its head from,
 * and the consumer's poll count never bounces the producers' line: once a pool of workers steals from
 * each other's run queues, head and tail are written by different cores all the time. 128 bytes, two
 * lines, because x86 prefetches cache lines in adjacent pairs. The price is about 400 bytes per queue
 * (one per mailbox, four per run queue).
 *
 * @param <T> the node type
 */
public final class MpscQueue<T extends MpscNode> extends MpscQueueProducerFields {
    private static final VarHandle TAIL;
    private static final VarHandle NEXT;
    private static final VarHandle OFFERED;
    private static final VarHandle POLLED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(MpscQueueProducerFields.class, "tail", MpscNode.class);
            OFFERED = lookup.findVarHandle(MpscQueueProducerFields.class, "offered", long.class);
            POLLED = lookup.findVarHandle(MpscQueueConsumerFields.class, "polled", long.class);
            NEXT = lookup.findVarHandle(MpscNode.class, "next", MpscNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    /** Appends a node; wait-free. The node must not be in any queue. */
    public void offer(T node) {
        // Counted first (an atomic add on the producers' own line), so size() never misses a pollable node.
        OFFERED.getAndAdd(this, 1L);
        NEXT.set(node, (MpscNode) null); // plain: published by the exchange below
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, node);
        // Release: the consumer that acquires this link sees the node's fields as written before offer.
        NEXT.setRelease(previous, node);
    }

    /** Removes the oldest node, or returns null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public T poll() {
        MpscNode first = head;
        MpscNode next = (MpscNode) NEXT.getAcquire(first);
        if (first == stub) {
            if (next == null) {
                return null;
            }
            head = next;
            first = next;
            next = (MpscNode) NEXT.getAcquire(next);
        }
        if (next != null) {
            head = next;
            return taken(first);
        }
        if (first != (MpscNode) TAIL.getVolatile(this)) {
            return null; // a producer swapped the tail but has not linked it yet
        }
        // first is the only node: put the stub behind it so first can be handed out.
        offerStub();
        next = (MpscNode) NEXT.getAcquire(first);
        if (next != null) {
            head = next;
            return taken(first);
        }
        return null;
    }

    /** True if no node is queued or being queued. Consumer only. */
    public boolean isEmpty() {
        MpscNode first = head;
        return first == stub && (MpscNode) TAIL.getVolatile(this) == stub;
    }

    /**
     * Nodes offered and not yet polled. Any thread, O(1), never negative; exact when nobody is offering or
     * polling, otherwise a value the queue held at some instant during the call, or a neighbour of it.
     */
    public long size() {
        // Offers: volatile, because an idle consumer's re-check is a Dekker handshake (the HOSTED worker
        // writes its idle flag, then reads this; a sender adds here, then reads the flag), and only a
        // volatile load is ordered after the consumer's volatile store. Polls: acquire, pairing with the
        // consumer's release store; read second, so a racing poll can only make the size smaller.
        long offered = (long) OFFERED.getVolatile(this);
        long polled = (long) POLLED.getAcquire(this);
        return Math.max(0, offered - polled);
    }

    /** Consumer only: counts the node out. Release, as the consumer is the counter's only writer. */
    @SuppressWarnings("unchecked")
    private T taken(MpscNode node) {
        POLLED.setRelease(this, polled + 1);
        return (T) node;
    }

    /** The consumer re-queues the stub; not an offer, so not counted. */
    private void offerStub() {
        NEXT.set(stub, (MpscNode) null);
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, stub);
        NEXT.setRelease(previous, stub);
    }
}

/** Fields both sides read and nobody writes after construction. */
abstract class MpscQueueColdFields {
    final MpscNode stub = new MpscNode();
}

/** Keeps the consumer's fields off the line that holds the object header and the cold fields. */
abstract class MpscQueuePadBeforeHead extends MpscQueueColdFields {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Written by the consumer only. */
abstract class MpscQueueConsumerFields extends MpscQueuePadBeforeHead {
    /** The oldest node, or the stub. */
    MpscNode head = stub;
    /** Nodes handed out; stored with release, read by others with acquire. */
    long polled;
}

/** Keeps the producers' fields off the consumer's lines. */
abstract class MpscQueuePadBeforeTail extends MpscQueueConsumerFields {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Written by every producer, each by one atomic instruction. */
abstract class MpscQueueProducerFields extends MpscQueuePadBeforeTail {
    /** The producers' end, swapped atomically. */
    volatile MpscNode tail = stub;
    /** Nodes offered; atomically added by producers. */
    volatile long offered;
}
