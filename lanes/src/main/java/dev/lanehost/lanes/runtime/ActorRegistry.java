package dev.lanehost.lanes.runtime;

import dev.lanehost.lanes.Snapshot;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.turn.TurnClock;
import dev.lanehost.lanes.turn.TurnRunner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's actors by id: the live ones (found by {@link dev.lanehost.lanes.ActorRuntime#lookup}) and every one not yet
 * torn down (snapshotted, counted, halted and torn down at close). An actor leaves the first set when its
 * halt is claimed and the second when its teardown has run on its placement. Any thread.
 */
public final class ActorRegistry {
    private final Map<Long, ActorCell> live = new ConcurrentHashMap<>();
    /** Every cell not yet torn down, including halted ones awaiting teardown on their placement. */
    private final Map<Long, ActorCell> present = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();

    long nextId() {
        return nextId.incrementAndGet();
    }

    void add(ActorCell cell) {
        live.put(cell.id, cell);
        present.put(cell.id, cell);
    }

    /** A live actor, or null once its halt is claimed. */
    public ActorCell live(long id) {
        return live.get(id);
    }

    /** The actor's halt was claimed: lookups no longer find it. */
    void halted(ActorCell cell) {
        live.remove(cell.id);
    }

    /** The actor's teardown has run: it is gone. */
    void tornDown(ActorCell cell) {
        present.remove(cell.id);
    }

    /** Actors not yet torn down. */
    public int count() {
        return present.size();
    }

    /** Actors not yet torn down, in id order (spawn order), so close and snapshots are deterministic. */
    List<ActorCell> inIdOrder() {
        List<ActorCell> ordered = new ArrayList<>(present.values());
        ordered.sort(Comparator.comparingLong(cell -> cell.id));
        return ordered;
    }

    /** One row per actor not yet torn down, in id order, without waiting on any busy actor. */
    public List<Snapshot.ActorRow> rows(long now) {
        List<Snapshot.ActorRow> rows = new ArrayList<>();
        for (ActorCell cell : present.values()) {
            rows.add(row(cell, now));
        }
        rows.sort(Comparator.comparingLong(Snapshot.ActorRow::id));
        return List.copyOf(rows);
    }

    /**
     * A row from racy-but-safe scalars: the mailbox depth is a count, not a walk, so an observer never takes
     * the turn lock and never waits on a turn.
     */
    private static Snapshot.ActorRow row(ActorCell cell, long now) {
        int depth = (int) Math.min(Integer.MAX_VALUE, cell.mailbox.depth());
        long turnStarted = cell.context.turnStartedNanos();
        Snapshot.ActorState state = cell.exitReason != null ? Snapshot.ActorState.HALTING
                : turnStarted != 0 ? Snapshot.ActorState.RUNNING
                : !cell.context.isStarted() ? Snapshot.ActorState.STARTING
                : cell.isScheduled() && (depth > 0 || cell.context.isHydrating()) ? Snapshot.ActorState.READY
                : Snapshot.ActorState.IDLE;
        return new Snapshot.ActorRow(cell.id, cell.name, cell.placement.toString(), state, depth, cell.context.turns(),
                turnStarted == 0 || turnStarted == TurnClock.UNSEEN ? 0 : Math.max(0, now - turnStarted),
                TurnRunner.of(cell).clock.strikes());
    }
}
