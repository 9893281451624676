package dev.lanehost.callgate;

import java.util.ArrayList;
import java.util.List;

/**
 * The blocking callers parked on one gate, so that its close can wake them. The calls are linked through their own
 * fields: a caller that parks and leaves allocates nothing (a concurrent set allocated a node on every park).
 *
 * <p>A lock guards the links. Parking is the slow side of a call (it follows a spin and precedes a park/unpark of
 * several microseconds), and a caller holds the lock for a few stores. Registering before the caller reads the gate's
 * closed flag, and {@code close} setting the flag before it takes the lock, puts the two in one order: either the
 * caller sees the flag or the close sees the caller (lock, unlock and volatile accesses are all synchronization
 * actions, totally ordered).
 */
final class ParkedCallers {
    private CallRendezvous head;

    synchronized void add(CallRendezvous call) {
        call.parkedPrev = null;
        call.parkedNext = head;
        if (head != null) {
            head.parkedPrev = call;
        }
        head = call;
        call.parkedListed = true;
    }

    /** Removes {@code call} if it is listed; a call that never registered is left alone. */
    synchronized void remove(CallRendezvous call) {
        if (!call.parkedListed) {
            return;
        }
        CallRendezvous prev = call.parkedPrev;
        CallRendezvous next = call.parkedNext;
        if (prev == null) {
            head = next;
        } else {
            prev.parkedNext = next;
        }
        if (next != null) {
            next.parkedPrev = prev;
        }
        call.parkedPrev = null;
        call.parkedNext = null;
        call.parkedListed = false;
    }

    /** The calls parked now, for a close to withdraw outside the lock (a withdrawal wakes a caller that then leaves). */
    synchronized List<CallRendezvous> snapshot() {
        List<CallRendezvous> calls = new ArrayList<>();
        for (CallRendezvous call = head; call != null; call = call.parkedNext) {
            calls.add(call);
        }
        return calls;
    }
}
