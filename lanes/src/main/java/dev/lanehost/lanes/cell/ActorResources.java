package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.HaltStep;
import dev.lanehost.lanes.RuntimeObserver;
import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.resource.ActorSignal;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.time.ActorTimer;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What an actor holds open beyond its mailbox — signals, timers, parks and its arena — and the order in
 * which its halt releases them.
 *
 * <h2>Teardown order</h2>
 * The cell's teardown runs {@code stopped}, then drops undelivered letters, then calls
 * {@link #release}, which ends, each once and each followed by its {@link HaltStep}:
 * <ol>
 *   <li>signals (release hooks run, outside any lock);</li>
 *   <li>timers;</li>
 *   <li>parks (release hooks run outside any lock, so they may stop or join their producers);</li>
 *   <li>the arena, last, because a release hook may still touch memory in it.</li>
 * </ol>
 * Then the watchers are notified. Every count in {@link LiveCounters} returns to zero.
 *
 * <p>The sets are guarded by {@code this} (owner's turn adds; any thread that ends a resource forgets it);
 * the arena is the owner's alone (its turns and its teardown).
 */
public final class ActorResources {

    private final LiveCounters counters;
    private final List<ActorSignal> signals = new ArrayList<>(0);
    /**
     * Held timers, oldest first: a list threaded through the timers themselves ({@link ActorTimer#nextHeld}), so arming
     * allocates no node and forgetting is O(1).
     */
    private ActorTimer firstTimer;
    private ActorTimer lastTimer;
    private final Set<ActorPark<?>> parks = new LinkedHashSet<>();
    private Arena arena;
    private final HeldArenas heldArenas;

    ActorResources(LiveCounters counters, HeldArenas heldArenas) {
        this.counters = counters;
        this.heldArenas = heldArenas;
    }

    public synchronized void add(ActorSignal signal) {
        signals.add(signal);
    }

    public synchronized void add(ActorTimer timer) {
        if (timer.held) {
            return;
        }
        timer.held = true;
        timer.previousHeld = lastTimer;
        timer.nextHeld = null;
        if (lastTimer == null) {
            firstTimer = timer;
        } else {
            lastTimer.nextHeld = timer;
        }
        lastTimer = timer;
    }

    public synchronized void add(ActorPark<?> park) {
        parks.add(park);
    }

    synchronized void forget(ActorSignal signal) {
        signals.remove(signal);
    }

    synchronized void forget(ActorTimer timer) {
        if (!timer.held) {
            return; // already let go (a cancel racing the teardown, which took the whole list)
        }
        ActorTimer previous = timer.previousHeld;
        ActorTimer next = timer.nextHeld;
        if (previous == null) {
            firstTimer = next;
        } else {
            previous.nextHeld = next;
        }
        if (next == null) {
            lastTimer = previous;
        } else {
            next.previousHeld = previous;
        }
        timer.previousHeld = null;
        timer.nextHeld = null;
        timer.held = false;
    }

    synchronized void forget(ActorPark<?> park) {
        parks.remove(park);
    }

    /** The owner's turn: its shared arena, opened on first use. */
    public Arena arena() {
        if (arena == null) {
            arena = Arena.ofShared();
            counters.opened(LiveCounters.Kind.ARENAS);
        }
        return arena;
    }

    /** The owner's teardown: ends everything held, in the order above. */
    public void release(RuntimeObserver observer, ActorRef owner) {
        heldArenas.retry(); // arenas of earlier teardowns a native call held: one of them may be free now
        List<ActorSignal> attachedSignals;
        List<ActorTimer> armedTimers;
        List<ActorPark<?>> pendingParks;
        synchronized (this) {
            attachedSignals = new ArrayList<>(signals);
            signals.clear();
            armedTimers = new ArrayList<>();
            for (ActorTimer timer = firstTimer; timer != null; ) {
                ActorTimer next = timer.nextHeld;
                armedTimers.add(timer);
                timer.previousHeld = null;
                timer.nextHeld = null;
                timer.held = false;
                timer = next;
            }
            firstTimer = null;
            lastTimer = null;
            pendingParks = new ArrayList<>(parks);
            parks.clear();
        }
        for (ActorSignal signal : attachedSignals) {
            signal.cancelForHalt(); // runs the release hook, outside our lock
        }
        observer.haltStep(owner, HaltStep.SIGNALS);
        for (ActorTimer timer : armedTimers) {
            timer.cancelForHalt();
        }
        observer.haltStep(owner, HaltStep.TIMERS);
        for (ActorPark<?> park : pendingParks) {
            park.cancelForHalt(); // release hooks outside any lock, so they may stop or join producers
        }
        observer.haltStep(owner, HaltStep.PARKS);
        if (arena != null) {
            Arena ending = arena;
            arena = null;
            heldArenas.close(ending, "actor " + owner.id() + " '" + owner.name() + "'"); // never throws: the teardown goes on
        }
        observer.haltStep(owner, HaltStep.ARENA);
    }
}
