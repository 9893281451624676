package dev.lanehost.lanes.queue;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * An unbounded multi-producer single-consumer FIFO of references, kept in a chain of fixed-size arrays ("chunks"):
 * any thread may {@link #offer} or {@link #offerIfRoom}; one consumer at a time may {@link #poll} and {@link #peek};
 * any thread may read {@link #size}. An actor's mailbox. The one consumer at a time may hold the queue's consumer lock
 * ({@link #tryLockConsumer}) for it: an actor's turn lock.
 *
 * <h2>Why arrays, not linked nodes</h2>
 * A linked queue stores a reference to each new element twice into the queue object itself: the producers' tail and,
 * when the consumer takes it, the head. Once the collector has moved the queue to the old generation (a long-lived
 * actor's mailbox always gets there), each such store of a young element into an old object takes G1's write
 * barrier's slow path, a fence. Here the element is stored once, into a slot, and the positions are numbers: on a
 * lane turn that sends itself the next message, 31 ns instead of 42 (benchmarks/HISTORY.md, "Execution lanes"). The position is
 * also the count: an offer is one compare-and-set, where a counted linked queue takes an atomic add and an exchange.
 *
 * <h2>The consumer's idle mark</h2>
 * The producers' position also carries one bit for the consumer: <em>idle</em>. A consumer that finds the queue empty
 * may set it ({@link #markIdleIfEmpty}), and the offer that next claims a place clears it in the same CAS and learns
 * so: an actor's mailbox is this queue, and the sender whose letter finds the actor idle is the one that makes it
 * runnable, without a second atomic step on a separate flag. {@link #claimIdle} clears it without an element (a halt
 * that must wake the actor). Every change of the mark is a CAS on the position, so exactly one party takes each idle
 * spell, and a consumer that marked itself idle cannot miss an element: either the offer saw the mark, or the mark's CAS
 * saw the offer's position. A queue starts not idle: its consumer holds it, as an actor is held by its spawner until
 * the spawner queues it.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>Positions count in steps of four: element {@code n} is at position {@code 4n}. Bit 1 is the idle mark (above).
 *       The low bit of the producers'
 *       position is set while one producer links a new chunk, once every {@code chunkSlots} elements; the others
 *       wait for it, spinning briefly and then parking a microsecond at a time. The linker readies its chunk (takes
 *       the spare or allocates, and puts its element in) before it claims, and from the claim to the position's
 *       store makes no call, so nothing can throw there, not even a stack overflow: the wait is three stores long,
 *       unless the linker is preempted in them. In that window the queue blocks, where a linked queue's offer is
 *       wait-free: the price of storing each element once.</li>
 *   <li>A producer reads the position, then the current chunk (written before the position that made it current was
 *       published), and claims the position by CAS; a lost CAS looks again. A chunk holds {@code chunkSlots}
 *       elements and one more slot, its link to the next chunk. The claimed slot's element is stored after a release
 *       fence (so a release store, with no call between the claim and the store). The producer that claims the first
 *       position past a full chunk has readied the next chunk with its element in the first slot; it makes it
 *       current, links it from the full chunk and publishes the position past it (a volatile store).</li>
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
    /** A capacity this large or larger never refuses: positions, counted in steps of four, could not reach it. */
    private static final long UNBOUNDED = Long.MAX_VALUE >> 3;
    /** Set in the producers' position while one producer links a new chunk. */
    private static final long LINKING = 1;
    /** Set in the producers' position while the consumer is idle (see the class comment). */
    private static final long IDLE = 2;
    /** Positions per element. */
    static final long STEP = 4;
    /** {@link #offerIfRoomClaiming}: nothing queued, the queue was full. */
    public static final int FULL = -1;
    /** {@link #offerIfRoomClaiming}: queued, the consumer was not idle. */
    public static final int QUEUED = 0;
    /** {@link #offerIfRoomClaiming}: queued, and the consumer's idle mark cleared by this offer: the caller wakes it. */
    public static final int QUEUED_WAS_IDLE = 1;
    /** Spins a producer waits for another's link before it parks instead: a link is a few stores, unless preempted. */
    private static final int LINK_SPINS = 128;
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

    /**
     * Appends an element: one CAS, or a wait while another producer links a chunk (see the protocol).
     *
     * @return true if the consumer was idle and this offer cleared its mark: the caller wakes it
     */
    public boolean offer(E element) {
        return offerIfRoomClaiming(element, UNBOUNDED) == QUEUED_WAS_IDLE;
    }

    /** {@link #offerIfRoomClaiming}, for a caller that keeps no idle mark. @return true if queued */
    public boolean offerIfRoom(E element, long capacity) {
        return offerIfRoomClaiming(element, capacity) != FULL;
    }

    /**
     * Appends an element only if the queue holds fewer than {@code capacity}: a bounded mailbox's admission and offer
     * in one claim, so producers racing for the last places never overfill it and never lose a place to one another's
     * refusal. The consumer's position is read only when the producers' cached copy of it says the queue may be
     * full. The claim clears the consumer's idle mark ({@link #markIdleIfEmpty}). Any thread; waits only while another
     * producer links a chunk (see the protocol).
     *
     * @return {@link #FULL} (nothing queued), {@link #QUEUED}, or {@link #QUEUED_WAS_IDLE} if this offer cleared the
     *         consumer's idle mark
     */
    public int offerIfRoomClaiming(E element, long capacity) {
        long room = capacity >= UNBOUNDED ? Long.MAX_VALUE : capacity * STEP; // in positions
        Object[] next = null; // this producer's own next chunk, holding its element, while it tries to link it
        int waits = 0;
        while (true) {
            long word = lvProduced();
            if ((word & LINKING) != 0) {
                waits = awaitLink(waits); // another producer is linking a new chunk
                continue;
            }
            long position = word & ~IDLE;
            int claimed = (word & IDLE) != 0 ? QUEUED_WAS_IDLE : QUEUED;
            Object[] chunk = producerChunk; // current for `position` unless the CAS below fails
            if (position - loConsumedSeen() >= room) {
                long consumed = lvConsumed();
                poConsumedSeen(consumed); // a stale value only makes the next producer look again
                if (position - consumed >= room) {
                    giveBack(next);
                    return FULL;
                }
            }
            int slot = slot(position);
            if (slot != 0 || position == 0) {
                if (next != null) { // readied for a chunk's end another producer linked
                    giveBack(next);
                    next = null;
                }
                VarHandle.releaseFence(); // the element's fields before the slot's store (a release store, made here)
                if (casProduced(word, position + STEP)) {
                    // From the claim to the store, no call: nothing can throw between, not even a stack overflow in a
                    // deep turn, which would leave the slot empty for good with the positions past it.
                    chunk[slot] = element;
                    return claimed;
                }
            } else {
                // The claim at a chunk's end links the next chunk while the other producers wait. Whatever can fail
                // (the allocation, a call) comes before the claim, so the wait always ends: the chunk is this
                // producer's own (the spare, taken, or a new one), with its element in place, before it claims.
                if (next == null) {
                    next = xchgSpare(null);
                    if (next == null) {
                        next = new Object[chunkSlots + 1];
                    }
                }
                next[0] = element;
                VarHandle.releaseFence(); // the element and its slot before the link's store
                if (casProduced(word, position + LINKING)) { // the idle mark, if set, is this claim's
                    producerChunk = next; // plain: published by the position's volatile store
                    chunk[chunkSlots] = next;
                    produced = position + STEP; // a volatile store (sv), written inline: no call between the claim and its end
                    return claimed;
                }
                next[0] = null; // another producer linked: this chunk is kept for a later try at a chunk's end
            }
        }
    }

    /** A chunk readied for a link another producer made: back as the spare, unless the consumer has left another. */
    private void giveBack(Object[] readied) {
        if (readied != null) {
            readied[0] = null;
            casSpare(null, readied);
        }
    }

    /**
     * A producer waiting for another to link a chunk: spins a while, then parks a microsecond at a time, so a waiting
     * thread of a higher (even real-time) priority lets a preempted linker on its CPU run. @return the waits so far
     */
    private static int awaitLink(int waits) {
        if (waits < LINK_SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(1_000L);
        }
        return waits + 1;
    }

    // The consumer lock: on the consumer's line, which only its holder writes, so a producer reading the queue's cold
    // fields or claiming a place never shares a line with it. Nothing in the queue takes it: its users decide who
    // consumes (an actor's runner, or a closing thread that tears the actor down).

    /** Takes the consumer lock if it is free. Any thread. @return true if the caller now holds it */
    public boolean tryLockConsumer() {
        return casConsumerLock(0, 1);
    }

    /** Lets the consumer lock go; release orders what the holder did before whoever takes it next. Holder only. */
    public void unlockConsumer() {
        soConsumerLock(0);
    }

    /** A volatile unlock, for a holder that reads other state right after and must be seen to have let go first. */
    public void unlockConsumerAndFence() {
        svConsumerLock(0);
    }

    /** Whether some thread holds the consumer lock. Any thread (racy unless the caller orders it). */
    public boolean isConsumerLocked() {
        return lvConsumerLock() != 0;
    }

    /** Removes the oldest element, or returns null if the queue is empty or a producer is mid-offer. Consumer only. */
    @SuppressWarnings("unchecked")
    public E poll() {
        long position = lpConsumed();
        Object[] chunk = consumerChunk(position);
        if (chunk == null) {
            return null;
        }
        int slot = slot(position);
        Object element = lvSlot(chunk, slot);
        if (element == null) {
            return null;
        }
        soConsumed(position + STEP);
        // After the position, with no call between (a stack overflow in a deep receive cannot leave the element taken
        // but unreturned): no producer writes this slot again until the chunk is left and reused.
        chunk[slot] = null; // nothing of a taken element stays behind in a chunk still in use
        return (E) element;
    }

    /**
     * The oldest element without removing it, or null if the queue is empty or a producer is mid-offer. It changes
     * nothing (at a chunk's end it looks through the link; {@link #poll} moves the consumer into the next chunk), so a
     * thread that is not the consumer may look too, as a worker looks at the actor it kept when a thief may have taken
     * it: what such a look reads of the consumer's fields may be stale, and its answer only a hint, but it never throws
     * and never moves the consumer's chunk behind the consumer (jcstress {@code MpscChunkStaleLookTest}).
     */
    @SuppressWarnings("unchecked")
    public E peek() {
        long position = lpConsumed();
        Object[] chunk = consumerChunk;
        if (position == consumerChunkEnd) {
            Object link = lvSlot(chunk, chunkSlots);
            if (link == null) {
                return null; // empty, or the producer of this position is linking the next chunk
            }
            chunk = (Object[]) link;
        }
        return (E) lvSlot(chunk, slot(position));
    }

    /** The chunk that holds {@code position}: the consumer's, or the next once its link is written; null until then. */
    private Object[] consumerChunk(long position) {
        Object[] chunk = consumerChunk;
        if (position != consumerChunkEnd) {
            return chunk;
        }
        Object link = lvSlot(chunk, chunkSlots);
        if (link == null) {
            return null; // empty, or the producer of this position is linking the next chunk
        }
        Object[] next = (Object[]) link;
        chunk[chunkSlots] = null; // an old chunk the collector has promoted keeps no later one alive
        consumerChunk = next;
        consumerChunkEnd = position + STEP * chunkSlots;
        // Every slot of the chunk left behind has been taken and cleared, and no producer writes it again: the next
        // chunk to be linked may be this one, so a queue whose letters come a few at a time allocates nothing.
        soSpare(chunk);
        return next;
    }

    private int slot(long position) {
        return (int) (position >>> 2) & (chunkSlots - 1);
    }

    /**
     * The consumer, finding nothing to take, marks itself idle, unless an element is queued or being queued. Consumer
     * only. A CAS: an offer racing it either claimed before it (the mark fails, the consumer takes the element) or
     * after it (the offer clears the mark and wakes the consumer).
     *
     * @return true if the consumer is idle now
     */
    public boolean markIdleIfEmpty() {
        long consumed = lpConsumed();
        return casProduced(consumed, consumed | IDLE);
    }

    /**
     * The consumer gives up its hold whatever is queued: the next offer, or a {@link #claimIdle}, takes it. Consumer
     * only (a runner handing its actor back to the thread that holds its turn lock). Waits out a chunk's link.
     */
    public void markIdle() {
        int waits = 0;
        while (true) {
            long word = lvProduced();
            if ((word & LINKING) != 0) {
                waits = awaitLink(waits); // the linker's closing store would overwrite the mark
                continue;
            }
            if ((word & IDLE) != 0 || casProduced(word, word | IDLE)) {
                return;
            }
        }
    }

    /**
     * Clears the consumer's idle mark if it is set, without an element: the caller wakes the consumer (a halt, a teardown
     * left to do). Any thread.
     *
     * @return true if this call cleared it
     */
    public boolean claimIdle() {
        while (true) {
            long word = lvProduced();
            if ((word & IDLE) == 0) {
                return false; // not idle, or a linking producer took the mark with its claim
            }
            if (casProduced(word, word & ~IDLE)) {
                return true;
            }
        }
    }

    /** True while the consumer's idle mark is set. Any thread (racy). */
    public boolean isIdle() {
        return (lvProduced() & IDLE) != 0;
    }

    /**
     * True if no element is queued or being queued. The consumer, or a thread after a volatile hand-off from it. The
     * producers' position is a volatile read, so a consumer's re-check after a volatile store (a blocking receiver's
     * announcement) is ordered after that store: a null {@link #peek} is not enough for that, as a slot is stored with
     * release only.
     */
    public boolean isEmpty() {
        return (lvProduced() & ~IDLE) == lvConsumed();
    }

    /**
     * Elements offered and not yet taken, those being offered included. Any thread, O(1), never negative; exact when
     * nobody is offering or polling, otherwise a value the queue held at some instant during the call, or a neighbour
     * of it.
     */
    public long size() {
        // Produced: volatile, so a look that follows a volatile store or a CAS of the caller's is ordered after it.
        // Consumed: acquire, read second, so a racing poll only makes it smaller.
        long produced = lvProduced() & ~IDLE;
        long consumed = lvConsumed();
        return Math.max(0, (produced - consumed + STEP - 1) >> 2); // a chunk being linked (LINKING set) counts its element
    }
}
