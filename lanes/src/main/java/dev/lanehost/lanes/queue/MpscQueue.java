package dev.lanehost.lanes.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An intrusive multi-producer single-consumer FIFO (Dmitry Vyukov's non-blocking MPSC queue) that also
 * counts what passed through it: any thread may {@link #offer}; one consumer at a time may {@link #poll};
 * any thread may read {@link #size}. A node may be offered again once polled: the run queues' nodes are actors,
 * queued again and again (a mailbox is an {@link MpscChunkQueue}).
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
 *   <li>A node can be handed out only once another is linked behind it, since its successor becomes the head.
 *       When the consumer takes the last node, it queues the stub behind it (an exchange on the producers' tail,
 *       uncounted) so the node can go.</li>
 * </ol>
 *
 * <h2>Layout</h2>
 * The fields sit in a chain of classes, as JCTools lays out its queues, because the JVM keeps a
 * superclass's fields ahead of a subclass's and never interleaves them:
 * <pre>
 *   MpscQueueColdFields      stub                      (written once, read by both sides)
 *   MpscQueuePadBeforeHead   128 bytes
 *   MpscQueueConsumerFields  head, polled               (written by the consumer only)
 *   MpscQueuePadBeforeTail   128 bytes
 *   MpscQueueProducerFields  tail, offered              (written by every producer)
 *   MpscQueue                128 bytes
 * </pre>
 * So a producer's exchange on the tail never invalidates the line the consumer reads its head from,
 * and the consumer's poll count never bounces the producers' line: once a pool of workers steals from
 * each other's run queues, head and tail are written by different cores all the time. 128 bytes, two
 * lines, because x86 prefetches cache lines in adjacent pairs. The padding is {@code byte} fields, as in
 * current JCTools: HotSpot lays a subclass's small fields into holes the superclass left, so long padding
 * would let the 4-byte {@code tail} slip in right behind {@code head}; bytes leave no hole. The price is
 * about 400 bytes per queue (four per run queue).
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
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

    /** The node linked behind {@code node}, or null (acquire). */
    static MpscNode lvNext(MpscNode node) {
        return (MpscNode) NEXT.getAcquire(node);
    }

    /** Sets {@code node}'s link with a plain store: published by a later release or exchange. */
    static void spNext(MpscNode node, MpscNode next) {
        NEXT.set(node, next);
    }

    private MpscNode lvTail() {
        return (MpscNode) TAIL.getVolatile(this);
    }

    private long lvOffered() {
        return (long) OFFERED.getVolatile(this);
    }

    private long lvPolled() {
        return (long) POLLED.getAcquire(this);
    }

    private void soPolled(long polled) {
        POLLED.setRelease(this, polled);
    }

    /** Appends a node; wait-free. The node must not be in any queue. */
    public void offer(T node) {
        // Counted first (an atomic add on the producers' own line), so size() never misses a pollable node.
        OFFERED.getAndAdd(this, 1L);
        link(node);
    }

    /** The offer's exchange and link, once the node is counted. */
    private void link(T node) {
        spNext(node, null); // plain: published by the exchange below
        // The exchange (xchg) and the link (so) are written inline, no call between them: a stack overflow there
        // would leave the tail unlinked for good. Release: the consumer that acquires the link sees the node's fields.
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, node);
        NEXT.setRelease(previous, node);
    }

    /**
     * Appends every node of {@code chain}, in its order, and empties it: one count and one exchange for the lot,
     * where offering them one by one would take two atomic steps each. Wait-free. The nodes were linked by the
     * chain's thread with plain stores, published by the release store that links them behind the old tail.
     */
    public void offerAll(Chain<T> chain) {
        if (chain.count == 0) {
            return;
        }
        OFFERED.getAndAdd(this, chain.count);
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, chain.last); // xchg, then the link (so), inline as in link()
        NEXT.setRelease(previous, chain.first);
        chain.clear();
    }

    /**
     * Nodes one thread strings together to {@link #offerAll} at once. Owned by one thread; reusable. A node in
     * a chain is in no queue, and must not be offered elsewhere until the chain is.
     *
     * @param <T> the node type
     */
    public static final class Chain<T extends MpscNode> {
        private MpscNode first;
        private MpscNode last;
        private long count;

        /** Appends a node that is in no queue. */
        public void add(T node) {
            spNext(node, null);
            if (last == null) {
                first = node;
            } else {
                spNext(last, node);
            }
            last = node;
            count++;
        }

        /** Nodes added since the chain was last offered. */
        public long size() {
            return count;
        }

        private void clear() {
            first = null;
            last = null;
            count = 0;
        }
    }

    /** Removes the oldest node, or returns null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public T poll() {
        MpscNode first = head;
        MpscNode next = lvNext(first);
        if (first == stub) {
            if (next == null) {
                return null;
            }
            // Cut the stub off the queue: no producer links behind it again, as it is not the tail. Left linked, it
            // would keep every node taken after it reachable through their links until it is queued again.
            spNext(first, null);
            head = next;
            first = next;
            next = lvNext(next);
        }
        if (next != null) {
            head = next;
            return taken(first);
        }
        if (first != lvTail()) {
            return null; // a producer swapped the tail but has not linked it yet
        }
        // first is the only node: put the stub behind it so first can be handed out.
        offerStub();
        next = lvNext(first);
        if (next != null) {
            head = next;
            return taken(first);
        }
        return null;
    }

    /** The oldest node without removing it, or null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public T peek() {
        MpscNode first = head;
        if (first == stub) {
            first = lvNext(first);
        }
        return (T) first;
    }

    /** True if no node is queued or being queued. Consumer only. */
    public boolean isEmpty() {
        MpscNode first = head;
        return first == stub && lvTail() == first;
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
        long offered = lvOffered();
        long polled = lvPolled();
        return Math.max(0, offered - polled);
    }

    /** Consumer only: counts the node out. Release, as the consumer is the counter's only writer. */
    @SuppressWarnings("unchecked")
    private T taken(MpscNode node) {
        soPolled(polled + 1);
        return (T) node;
    }

    /** The consumer re-queues the stub; not an offer, so not counted. */
    private void offerStub() {
        spNext(stub, null);
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, stub); // xchg, then the link (so), inline as in link()
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
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
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
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
}

/** Written by every producer, each by one atomic instruction. */
abstract class MpscQueueProducerFields extends MpscQueuePadBeforeTail {
    /** The producers' end, swapped atomically. */
    volatile MpscNode tail = stub;
    /** Nodes offered; atomically added by producers. */
    volatile long offered;
}
