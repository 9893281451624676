package dev.lanehost.lanes.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An intrusive multi-producer single-consumer FIFO (Dmitry Vyukov's non-blocking MPSC queue): any thread
 * may {@link #offer}; one consumer at a time may {@link #poll}. A node may be offered again once polled.
 *
 * <p>Protocol: a producer swaps itself in as the tail (one atomic exchange, so producers never retry),
 * then links the previous tail to itself. Between those two steps the queue is momentarily unlinked:
 * {@link #poll} then returns null although {@link #isEmpty} is false. Callers treat that as "come back
 * shortly", never as "empty".
 *
 * @param <T> the node type
 */
public final class MpscQueue<T extends MpscNode> {
    private static final VarHandle TAIL;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(MpscQueue.class, "tail", MpscNode.class);
            NEXT = lookup.findVarHandle(MpscNode.class, "next", MpscNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MpscNode stub = new MpscNode();
    /** Consumer-owned: the oldest node, or the stub. */
    private MpscNode head = stub;
    /** Producers' end, swapped atomically. */
    @SuppressWarnings("unused")
    private volatile MpscNode tail = stub;

    /** Appends a node; wait-free. The node must not be in any queue. */
    public void offer(T node) {
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
            return (T) first;
        }
        if (first != (MpscNode) TAIL.getVolatile(this)) {
            return null; // a producer swapped the tail but has not linked it yet
        }
        // first is the only node: put the stub behind it so first can be handed out.
        offerStub();
        next = (MpscNode) NEXT.getAcquire(first);
        if (next != null) {
            head = next;
            return (T) first;
        }
        return null;
    }

    /** True if no node is queued or being queued. Consumer only. */
    public boolean isEmpty() {
        MpscNode first = head;
        return first == stub && (MpscNode) TAIL.getVolatile(this) == stub;
    }

    private void offerStub() {
        NEXT.set(stub, (MpscNode) null);
        MpscNode previous = (MpscNode) TAIL.getAndSet(this, stub);
        NEXT.setRelease(previous, stub);
    }
}
