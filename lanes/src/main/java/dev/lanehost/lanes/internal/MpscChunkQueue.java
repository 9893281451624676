package dev.lanehost.lanes.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An unbounded multi-producer single-consumer FIFO of references, kept in a chain of fixed-size arrays ("chunks"):
 * any thread may {@link #offer} or {@link #offerIfRoom}; one consumer at a time may {@link #poll} and {@link #peek};
 * any thread may read {@link #size}. An actor's mailbox.
 *
 * <h2>Why arrays, not linked nodes</h2>
 * A linked queue stores a reference to each new element twice into the queue object itself: the producers' tail and,
 * when the consumer takes it, the head. Once the collector has moved the queue to the old generation (a long-lived
 * actor's mailbox always gets there), each such store of a young element into an old object takes G1's write
 * barrier's slow path, a fence. Here the element is stored once, into a slot, and the positions are numbers: on a
 * lane turn that sends itself the next message, 31 ns instead of 42 (benchmarks RESULTS.md, part 2). The position is
 * also the count: an offer is one compare-and-set, where a counted linked queue takes an atomic add and an exchange.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>Positions count in steps of two: element {@code n} is at position {@code 2n}. The low bit of the producers'
 *       position is set while one producer links a new chunk; the others wait for it (a few instructions, unless
 *       that producer is preempted: the queue is lock-free, not wait-free).</li>
 *   <li>A producer reads the position, then the current chunk (written before the position that made it current was
 *       published), and claims the position by CAS; a lost CAS looks again. A chunk holds {@code chunkSlots}
 *       elements and one more slot, its link to the next chunk. The claimed slot's element is stored with release.
 *       The producer that claims the first position past a full chunk makes the next chunk, puts its element in the
 *       first slot, makes it current, links it from the full chunk (release) and publishes the position past it.</li>
 *   <li>Between a claim and its store, the consumer finds the slot empty although the positions say an element is
 *       there: {@link #poll} returns null, and {@link #isEmpty} is false. Callers treat that as "come back shortly",
 *       never as "empty".</li>
 *   <li>The consumer takes the element at its position, clears the slot, and publishes its next position with
 *       release. At the end of a chunk it follows the link (acquire), clears it, and goes on in the next chunk; a
 *       link not yet written is the same as an empty slot. Cleared slots and links leave nothing a taken element or
 *       an old chunk could keep alive.</li>
 *   <li>{@link #size} is the producers' position minus the consumer's: a claim counts before its element is
 *       stored, so the size never runs behind what the consumer can take.</li>
 * </ol>
 *
 * <h2>Layout</h2>
 * As {@link MpscQueue}: the consumer's fields and the producers' fields sit 128 bytes apart, each away from the
 * object header and the cold fields, so a producer's CAS never invalidates the line the consumer reads its
 * position from.
 *
 * @param <E> the element type
 */
public final class MpscChunkQueue<E> extends MpscChunkQueueProducerFields {
    /** Slots of a chunk: a chunk costs 84 bytes, and a mailbox's letters mostly come a few at a time. */
    public static final int DEFAULT_CHUNK_SLOTS = 16;
    /** A capacity this large or larger never refuses: positions, counted in steps of two, could not reach it. */
    private static final long UNBOUNDED = Long.MAX_VALUE >> 2;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle PRODUCED;
    private static final VarHandle CONSUMED;
    private static final VarHandle CONSUMED_SEEN;
    private static final VarHandle SPARE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCED = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "produced", long.class);
            CONSUMED = lookup.findVarHandle(MpscChunkQueueConsumerFields.class, "consumed", long.class);
            CONSUMED_SEEN = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "consumedSeen", long.class);
            SPARE = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "spare", Object[].class);
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

    /** A queue of {@link #DEFAULT_CHUNK_SLOTS}-slot chunks. */
    public MpscChunkQueue() {
        this(DEFAULT_CHUNK_SLOTS);
    }

    /**
     * @param chunkSlots elements per chunk: a power of two, at least 2
     * @throws IllegalArgumentException otherwise
     */
    public MpscChunkQueue(int chunkSlots) {
        super(checked(chunkSlots));
    }

    private static int checked(int chunkSlots) {
        if (chunkSlots < 2 || Integer.bitCount(chunkSlots) != 1 || chunkSlots > 1 << 20) {
            throw new IllegalArgumentException("chunk slots must be a power of two from 2 to 2^20, got " + chunkSlots);
        }
        return chunkSlots;
    }

    /** Appends an element; lock-free. */
    public void offer(E element) {
        offerIfRoom(element, UNBOUNDED);
    }

    /**
     * Appends an element only if the queue holds fewer than {@code capacity}: a bounded mailbox's admission and offer
     * in one claim, so producers racing for the last places never overfill it and never lose a place to one another's
     * refusal. The consumer's position is read only when the producers' cached copy of it says the queue may be
     * full. Any thread; lock-free.
     *
     * @return true if queued, false if the queue was full (nothing queued)
     */
    public boolean offerIfRoom(E element, long capacity) {
        long room = capacity >= UNBOUNDED ? Long.MAX_VALUE : capacity << 1; // in positions
        while (true) {
            long position = (long) PRODUCED.getVolatile(this);
            if ((position & 1) != 0) {
                Thread.onSpinWait(); // another producer is linking a new chunk
                continue;
            }
            Object[] chunk = producerChunk; // current for `position` unless the CAS below fails
            if (position - (long) CONSUMED_SEEN.getOpaque(this) >= room) {
                long consumed = (long) CONSUMED.getAcquire(this);
                CONSUMED_SEEN.setOpaque(this, consumed); // a stale value only makes the next producer look again
                if (position - consumed >= room) {
                    return false;
                }
            }
            int slot = slot(position);
            if (slot != 0 || position == 0) {
                if (PRODUCED.compareAndSet(this, position, position + 2)) {
                    SLOT.setRelease(chunk, slot, (Object) element);
                    return true;
                }
            } else if (PRODUCED.compareAndSet(this, position, position + 1)) {
                link(chunk, position, element);
                return true;
            }
        }
    }

    /**
     * The claim of the first position past the full {@code chunk} (the low bit set): the next chunk (the spare the
     * consumer left, or a new one), then the position.
     */
    private void link(Object[] chunk, long position, Object element) {
        Object[] next = (Object[]) SPARE.getAcquire(this);
        if (next != null) {
            SPARE.setOpaque(this, (Object[]) null); // only the linking producer takes it; a spare stored meanwhile is lost, not shared
        } else {
            try {
                next = new Object[chunkSlots + 1];
            } catch (OutOfMemoryError e) {
                PRODUCED.setRelease(this, position); // let the other producers go on, and let this one's caller know
                throw e;
            }
        }
        next[0] = element; // plain: published by the link's release store
        producerChunk = next; // plain: published by the position's release store
        SLOT.setRelease(chunk, chunkSlots, (Object) next);
        PRODUCED.setRelease(this, position + 2);
    }

    /** Removes the oldest element, or returns null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public E poll() {
        long position = consumed;
        Object[] chunk = consumerChunk(position);
        if (chunk == null) {
            return null;
        }
        int slot = slot(position);
        Object element = (Object) SLOT.getAcquire(chunk, slot);
        if (element == null) {
            return null;
        }
        SLOT.set(chunk, slot, (Object) null); // nothing of a taken element stays behind in a chunk still in use
        CONSUMED.setRelease(this, position + 2);
        return (E) element;
    }

    /** The oldest element without removing it, or null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public E peek() {
        long position = consumed;
        Object[] chunk = consumerChunk(position);
        if (chunk == null) {
            return null;
        }
        Object element = (Object) SLOT.getAcquire(chunk, slot(position));
        return (E) element;
    }

    /** The chunk that holds {@code position}: the consumer's, or the next once its link is written; null until then. */
    private Object[] consumerChunk(long position) {
        Object[] chunk = consumerChunk;
        if (position != consumerChunkEnd) {
            return chunk;
        }
        Object link = (Object) SLOT.getAcquire(chunk, chunkSlots);
        if (link == null) {
            return null; // empty, or the producer of this position is linking the next chunk
        }
        Object[] next = (Object[]) link;
        SLOT.set(chunk, chunkSlots, (Object) null); // an old chunk the collector has promoted keeps no later one alive
        consumerChunk = next;
        consumerChunkEnd = position + 2L * chunkSlots;
        // Every slot of the chunk left behind has been taken and cleared, and no producer writes it again: the next
        // chunk to be linked may be this one, so a queue whose letters come a few at a time allocates nothing.
        SPARE.setRelease(this, chunk);
        return next;
    }

    private int slot(long position) {
        return (int) (position >>> 1) & (chunkSlots - 1);
    }

    /**
     * True if no element is queued or being queued. The consumer, or a thread after a volatile hand-off from it. The
     * producers' position is a volatile read, so a consumer's re-check after a volatile store (its idle mark) is
     * ordered after that store.
     */
    public boolean isEmpty() {
        return (long) PRODUCED.getVolatile(this) == (long) CONSUMED.getAcquire(this);
    }

    /**
     * Elements offered and not yet taken, those being offered included. Any thread, O(1), never negative; exact when
     * nobody is offering or polling, otherwise a value the queue held at some instant during the call, or a neighbour
     * of it.
     */
    public long size() {
        // Produced: volatile, because an idle consumer's re-check is a Dekker handshake (the HOSTED worker writes its
        // idle flag, then reads this; a sender claims here, then reads the flag), and only a volatile load is ordered
        // after the consumer's volatile store. Consumed: acquire, read second, so a racing poll only makes it smaller.
        long produced = (long) PRODUCED.getVolatile(this);
        long consumed = (long) CONSUMED.getAcquire(this);
        return Math.max(0, (produced - consumed + 1) >> 1); // a chunk being linked (odd) counts its element
    }
}

/** Fields both sides read and nobody writes after construction. */
abstract class MpscChunkQueueColdFields {
    /** Elements per chunk, a power of two; a chunk has one slot more, its link to the next. */
    final int chunkSlots;
    /** The chunk the queue starts with: the consumer's and the producers' first. */
    final Object[] firstChunk;

    MpscChunkQueueColdFields(int chunkSlots) {
        this.chunkSlots = chunkSlots;
        this.firstChunk = new Object[chunkSlots + 1];
    }
}

/** Keeps the consumer's fields off the line that holds the object header and the cold fields. */
abstract class MpscChunkQueuePadBeforeConsumer extends MpscChunkQueueColdFields {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

    MpscChunkQueuePadBeforeConsumer(int chunkSlots) {
        super(chunkSlots);
    }
}

/** Written by the consumer only. */
abstract class MpscChunkQueueConsumerFields extends MpscChunkQueuePadBeforeConsumer {
    /** The consumer's position (the next element's); stored with release, read by others with acquire. */
    volatile long consumed;
    /** The chunk the consumer's position is in, or the one before it when the position is its end. */
    Object[] consumerChunk;
    /** The first position past {@link #consumerChunk}. */
    long consumerChunkEnd;

    MpscChunkQueueConsumerFields(int chunkSlots) {
        super(chunkSlots);
        consumerChunk = firstChunk;
        consumerChunkEnd = 2L * chunkSlots;
    }
}

/** Keeps the producers' fields off the consumer's lines. */
abstract class MpscChunkQueuePadBeforeProducer extends MpscChunkQueueConsumerFields {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

    MpscChunkQueuePadBeforeProducer(int chunkSlots) {
        super(chunkSlots);
    }
}

/** Written by every producer: the position by CAS, the rest by the producer linking a new chunk. */
abstract class MpscChunkQueueProducerFields extends MpscChunkQueuePadBeforeProducer {
    /** The producers' position: twice the elements claimed, plus one while a new chunk is being linked. */
    volatile long produced;
    /** The chunk the producers' position is in; written before the position that made it current is published. */
    Object[] producerChunk;
    /** The consumer's position as a producer last read it, for {@code offerIfRoom}; any producer may store it. */
    long consumedSeen;
    /**
     * A chunk the consumer has left behind, every slot cleared, for the producer that links the next chunk; null if
     * none. Stored by the consumer (release), taken by the linking producer.
     */
    Object[] spare;

    MpscChunkQueueProducerFields(int chunkSlots) {
        super(chunkSlots);
        producerChunk = firstChunk;
    }
}
