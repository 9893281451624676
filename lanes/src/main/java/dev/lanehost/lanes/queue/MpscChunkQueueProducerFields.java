package dev.lanehost.lanes.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// The fields of an MpscChunkQueue, from the object header down, and their accessors, each named for its memory order
// (package-info: lp, lv, lo, po, so, sv, cas, xchg). The file bears the name of the class MpscChunkQueue extends.

/** Fields both sides read and nobody writes after construction. */
abstract class MpscChunkQueueColdFields {
    /** Elements per chunk, a power of two; a chunk has one slot more, its link to the next. */
    final int chunkSlots;
    /** The chunk the queue starts with: the consumer's and the producers' first. */
    final Object[] firstChunk;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    MpscChunkQueueColdFields(int chunkSlots) {
        this.chunkSlots = chunkSlots;
        this.firstChunk = new Object[chunkSlots + 1];
    }

    /** A slot of {@code chunk}: an element, a link to the next chunk, or null (acquire). */
    static Object lvSlot(Object[] chunk, int index) {
        return (Object) SLOT.getAcquire(chunk, index);
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

/** Written by the consumer only (and its lock by whoever takes it). */
abstract class MpscChunkQueueConsumerFields extends MpscChunkQueuePadBeforeConsumer {
    /** The consumer's position (the next element's); stored with release, read by others with acquire. */
    long consumed;
    /** The chunk the consumer's position is in, or the one before it when the position is its end. */
    Object[] consumerChunk;
    /** The first position past {@link #consumerChunk}. */
    long consumerChunkEnd;
    /** 1 while a thread holds the consumer lock ({@link MpscChunkQueue#tryLockConsumer}). */
    @SuppressWarnings("unused")
    volatile int consumerLock;

    private static final VarHandle CONSUMED;
    private static final VarHandle CONSUMER_LOCK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CONSUMED = lookup.findVarHandle(MpscChunkQueueConsumerFields.class, "consumed", long.class);
            CONSUMER_LOCK = lookup.findVarHandle(MpscChunkQueueConsumerFields.class, "consumerLock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    MpscChunkQueueConsumerFields(int chunkSlots) {
        super(chunkSlots);
        consumerChunk = firstChunk;
        consumerChunkEnd = MpscChunkQueue.STEP * chunkSlots;
    }

    /** The consumer's position, by the consumer itself. */
    final long lpConsumed() {
        return consumed;
    }

    /** The consumer's position, by any thread (acquire). */
    final long lvConsumed() {
        return (long) CONSUMED.getAcquire(this);
    }

    /** Publishes the consumer's next position (release). Consumer only. */
    final void soConsumed(long position) {
        CONSUMED.setRelease(this, position);
    }

    final boolean casConsumerLock(int expected, int value) {
        return CONSUMER_LOCK.compareAndSet(this, expected, value);
    }

    final int lvConsumerLock() {
        return (int) CONSUMER_LOCK.getVolatile(this);
    }

    final void soConsumerLock(int value) {
        CONSUMER_LOCK.setRelease(this, value);
    }

    final void svConsumerLock(int value) {
        CONSUMER_LOCK.setVolatile(this, value);
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
public abstract class MpscChunkQueueProducerFields extends MpscChunkQueuePadBeforeProducer {
    /**
     * The producers' position: four times the elements claimed, plus one while a new chunk is being linked, plus two
     * while the consumer is idle.
     */
    volatile long produced;
    /** The chunk the producers' position is in; written before the position that made it current is published. */
    Object[] producerChunk;
    /** The consumer's position as a producer last read it, for {@code offerIfRoom}; any producer may store it. */
    long consumedSeen;
    /**
     * A chunk the consumer has left behind, every slot cleared, for the producer that links the next chunk; null if
     * none. Stored by the consumer (release), taken by a producer at a chunk's end (an atomic exchange, so it is that
     * producer's alone).
     */
    Object[] spare;

    private static final VarHandle PRODUCED;
    private static final VarHandle CONSUMED_SEEN;
    private static final VarHandle SPARE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCED = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "produced", long.class);
            CONSUMED_SEEN = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "consumedSeen", long.class);
            SPARE = lookup.findVarHandle(MpscChunkQueueProducerFields.class, "spare", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    MpscChunkQueueProducerFields(int chunkSlots) {
        super(chunkSlots);
        producerChunk = firstChunk;
    }

    final long lvProduced() {
        return (long) PRODUCED.getVolatile(this);
    }

    final boolean casProduced(long expected, long word) {
        return PRODUCED.compareAndSet(this, expected, word);
    }

    final long loConsumedSeen() {
        return (long) CONSUMED_SEEN.getOpaque(this);
    }

    final void poConsumedSeen(long consumed) {
        CONSUMED_SEEN.setOpaque(this, consumed);
    }

    /** Takes the spare, leaving {@code value} (a producer at a chunk's end: the spare is then its alone). */
    final Object[] xchgSpare(Object[] value) {
        return (Object[]) SPARE.getAndSet(this, value);
    }

    final boolean casSpare(Object[] expected, Object[] value) {
        return SPARE.compareAndSet(this, expected, value);
    }

    final void soSpare(Object[] chunk) {
        SPARE.setRelease(this, chunk);
    }
}
