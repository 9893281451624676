package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.seam.LiveCounters;
import java.lang.foreign.Arena;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The arenas of halted actors that could not be closed at their teardown, because a native call on another thread
 * still held one of their segments (a shared arena refuses to close while it is acquired): each is closed at a later
 * try, once that call has returned. Until then it stays counted as live ({@link dev.lanehost.lanes.ActorRuntime#resources()}), and the
 * teardown itself goes on: the actor's end is never held up, nor its thread lost, by memory still in use.
 */
public final class HeldArenas {
    private record Held(Arena arena, String owner) {
    }

    private final Queue<Held> held = new ConcurrentLinkedQueue<>();
    private final LiveCounters counters;

    public HeldArenas(LiveCounters counters) {
        this.counters = counters;
    }

    /** Closes {@code arena} of {@code owner} now if nothing holds it, else keeps it for a later try. Never throws. */
    void close(Arena arena, String owner) {
        if (closes(arena)) {
            counters.ended(LiveCounters.Kind.ARENAS);
            return;
        }
        held.add(new Held(arena, owner));
        RuntimeLog.logSafely(System.Logger.Level.WARNING, owner + " halted while a native call still held memory of its arena;"
                + " the arena is closed once that call has returned");
    }

    /** Closes the held arenas nothing holds any more. Cheap when there are none. Any thread. */
    public void retry() {
        if (held.isEmpty()) {
            return;
        }
        for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
            Held next = it.next();
            if (closes(next.arena()) && held.remove(next)) { // remove() decides: two threads retrying count it once
                counters.ended(LiveCounters.Kind.ARENAS);
            }
        }
    }

    /** At the runtime's close, after a last try: what is still held is logged and left open (its memory until the process ends). */
    public void lastTry() {
        retry();
        for (Held still : held) {
            RuntimeLog.logSafely(System.Logger.Level.WARNING, still.owner() + "'s arena is still held by a native call as the"
                    + " runtime closes; it is left open");
        }
    }

    private static boolean closes(Arena arena) {
        if (!arena.scope().isAlive()) {
            return true; // its owner closed it already
        }
        try {
            arena.close();
            return true;
        } catch (IllegalStateException acquired) {
            return !arena.scope().isAlive();
        }
    }
}
