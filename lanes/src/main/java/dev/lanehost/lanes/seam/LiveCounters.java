package dev.lanehost.lanes.seam;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The runtime's count of live resources by kind: one object every resource reports its opening and its
 * ending to, so each kind is counted the same way and all of them return to zero once every actor is
 * torn down.
 *
 * <p>Opened and ended by whichever thread creates or ends the resource (an owner's turn, a firing
 * thread, a canceller, a teardown); read by observers. None of these is on a send's or a drive's path,
 * so one atomic per kind is enough.
 */
public final class LiveCounters {
    /** What is counted. */
    public enum Kind { SIGNALS, TIMERS, PARKS, ARENAS }

    private final AtomicLongArray live = new AtomicLongArray(Kind.values().length);

    public void opened(Kind kind) {
        live.getAndIncrement(kind.ordinal());
    }

    public void ended(Kind kind) {
        live.getAndDecrement(kind.ordinal());
    }

    /** Live now; exact when nothing is opening or ending one. Any thread (a volatile read). */
    public long live(Kind kind) {
        return live.get(kind.ordinal());
    }
}
