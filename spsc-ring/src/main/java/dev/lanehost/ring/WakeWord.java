package dev.lanehost.ring;

import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_COUNT_OFFSET;
import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_WAITER;
import static dev.lanehost.ring.SpscByteRingDescriptor.WAKE_WORD_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The wake word of one ring: what the producer does after each publishing write (steps 6 and 7) and what
 * a consumer does to sleep (steps 2 to 5) in the protocol the package's comment lists. The
 * same steps as {@code lanehost_ring.h}, on the same word, so either side may be C.
 */
final class WakeWord {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;
    /** Created by the consumer's first sleep: a ring nobody waits on never touches the futex. */
    private Futex.Waiter waiter;

    WakeWord(MemorySegment memory) {
        this.memory = memory;
    }

    // ---------------------------------------------------------------- producer

    /**
     * Step 6, after the release store of the producer position: whether a consumer announced that it sleeps.
     * A plain load of the producer's own line, no read-modify-write and no fence instruction: the consumer's
     * membarrier (step 3) supplies the hardware's store-load order. The release fence before it is the
     * compiler's half: C2 keeps every memory access on its side of it (so this load stays below the position
     * store), and on x86 it emits nothing.
     */
    boolean lpWaiterAfterPublish(RingAccess producer) {
        VarHandle.releaseFence();
        return (producer.lpInt(WAKE_WORD_OFFSET) & WAKE_WAITER) != 0;
    }

    /** Step 7: clears the announcement (the consumer announces again if it sleeps again) and wakes it. */
    void wakeWaiter() {
        INT.getAndBitwiseAndRelease(memory, (long) WAKE_WORD_OFFSET, ~WAKE_WAITER);
        // Opaque: only the producer writes the counter; observers read it with getOpaque.
        LONG.setOpaque(memory, (long) WAKE_COUNT_OFFSET, (long) LONG.get(memory, (long) WAKE_COUNT_OFFSET) + 1);
        if (Futex.isSupported()) { // elsewhere no consumer can sleep, so there is nobody to wake
            Futex.wakeAll(wordAddress());
        }
    }

    // ---------------------------------------------------------------- consumer

    /**
     * Step 2: sets the waiter bit unless it is set, and returns the word to sleep on. The order that makes
     * the protocol safe comes from {@link #fenceProducer()}; acquire only keeps the re-check below this.
     */
    int casAnnounce() {
        int word = (int) INT.getAcquire(memory, (long) WAKE_WORD_OFFSET);
        while ((word & WAKE_WAITER) == 0) {
            int witness = (int) INT.compareAndExchangeAcquire(memory, (long) WAKE_WORD_OFFSET, word, word | WAKE_WAITER);
            if (witness == word) {
                break;
            }
            word = witness;
        }
        return word | WAKE_WAITER;
    }

    /**
     * Step 3, after the announce: every other thread of this process runs a full barrier, so a producer
     * either sees the waiter bit or has made its position visible to the re-check.
     */
    void fenceProducer() {
        ProducerFence.fenceOtherThreads();
    }

    /** Takes the announcement back, unless the producer changed the word since (then it clears the bit itself). */
    void casWithdraw(int announced) {
        INT.compareAndSet(memory, (long) WAKE_WORD_OFFSET, announced, announced & ~WAKE_WAITER);
    }

    /** Step 5: sleeps while the word is still {@code announced}, at most {@code nanos}. */
    void sleep(int announced, long nanos) {
        if (waiter == null) {
            waiter = new Futex.Waiter();
        }
        waiter.await(wordAddress(), announced, nanos);
    }

    private long wordAddress() {
        return memory.address() + WAKE_WORD_OFFSET;
    }
}
