package dev.lanehost.lanes.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One word that says a queue may hold work, so that its consumer's "anything to do?" is a single load
 * instead of a look at every band of its run queue. A lane's host calls back far more often than there is
 * work, and an empty drive is that one load.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>A producer, <em>after</em> its node is in the queue by a volatile write (the MPSC queue's exchange),
 *       reads the flag (volatile) and raises it if it was down. A raised flag is left alone, so producers
 *       write this line only when the queue goes from idle to busy.</li>
 *   <li>The consumer reads the flag; down means every node offered before this read (in happens-before)
 *       has been taken.</li>
 *   <li>The consumer may lower the flag only right before it looks at the whole queue itself (volatile
 *       store, then volatile loads of the queue), and it raises the flag again if that look, or the work it
 *       does after, leaves anything queued.</li>
 * </ol>
 * Steps 1 and 3 are a Dekker handshake: the producer writes the queue then reads the flag, the consumer
 * writes the flag then reads the queue, all volatile, so at least one of them sees the other: either the
 * consumer's look finds the node, or the producer finds the flag down and raises it. Over-raising is
 * harmless (the consumer looks, finds nothing, lowers it); a lost raise is what must never happen.
 *
 * <p>A normal queue holds one of these; a lane's counters are one ({@code LaneCounters} extends it), so that an
 * empty drive reads the word off the object it counts in anyway, one load from the lane. Producers touch the
 * same line for the lane's letter count anyway.
 */
public class WorkFlag {
    private static final VarHandle RAISED;

    static {
        try {
            RAISED = MethodHandles.lookup().findVarHandle(WorkFlag.class, "raised", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private volatile int raised;

    /** A producer, after its offer; or the consumer, when its look left work queued. */
    public final void raise() {
        if ((int) RAISED.getVolatile(this) == 0) {
            // Release is enough for the store: the handshake's ordering is the volatile read above.
            RAISED.setRelease(this, 1);
        }
    }

    /**
     * As {@link #raise()}, without looking first: one store, which does not hold up its producer, where the look
     * would wait for the line (the consumer lowered the flag, so it holds it) and the store then take it back. For a
     * queue whose consumer polls it only while idle; a lane's host reads its flag on every drive, and producers that
     * find it raised must leave that line alone ({@link #raise()}).
     *
     * <p>This store is a release store after the offer's exchange, not the handshake's volatile read: the Java memory
     * model alone would let it be ordered before the consumer's {@link #lower()}, and be lost, while the consumer's
     * look missed the node. The hardware we run on does not: on x86 the exchange is a full barrier and stores are
     * not reordered with one another, and on ARMv8, which is multi-copy atomic, the release store is ordered after
     * the exchange and the consumer's store-release lower before its load-acquire look. A volatile store or an
     * exchange here would make it the model's too, for a fence on every offer to a worker's queue. jcstress
     * ({@code WorkFlagTest.RaiseAtOnce}) checks it on the machine it runs on.
     */
    public final void raiseAtOnce() {
        RAISED.setRelease(this, 1);
    }

    /** Consumer: false only if everything offered before this call has been taken. */
    public final boolean isRaised() {
        return (int) RAISED.getVolatile(this) != 0;
    }

    /**
     * Consumer, right before it looks at the whole queue: the volatile store keeps that look from moving
     * ahead of it. The caller must {@link #raise()} again if work remains when it is done.
     */
    public final void lower() {
        RAISED.setVolatile(this, 0);
    }
}
