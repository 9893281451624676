package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellRun;

/**
 * The actor a worker keeps scheduled after a run that left its mailbox empty ({@link WorkerPool}'s last rule): its next
 * letter finds it scheduled, so the sender queues nothing and wakes nobody, and the worker runs it when its own queues
 * are empty. The worker lets it go before it runs any other actor, before it parks, and when the pool stops.
 *
 * <p>The kept actor waits at a door of its own ({@link HandOff}, the same protocol as the door actors are handed in
 * at, which stays open for them): the worker takes it back when a letter has come, and another spinning worker that
 * sees it there with a letter twice in a row steals it, as it steals an actor left at a door (unless it is pinned to
 * its worker), so a worker that lost its core does not hold a letter until its next time slice. Exactly one of them
 * gets the actor: the word's CAS. The other methods are its worker's thread only.
 */
public final class KeptActor {
    /** The kept actor, or CLOSED, or OPEN once a thief took it. Read by thieves. */
    private final HandOff<ActorCell> door = new HandOff<>();
    /** Sightings of a victim's kept actor with a letter, this worker the thief. */
    private final Sightings seen;
    /** The actor this worker placed at its door and has not taken back: null once taken, let go, or found stolen. */
    private ActorCell kept;

    KeptActor(int workers) {
        seen = new Sightings(workers);
    }

    /** Runs {@code cell}, letting any other kept actor go first, and keeps it if its run allows. @return the turns run */
    public int run(ActorCell cell, int maxTurns) {
        if (kept != cell) {
            release(); // other work first: the kept actor is idle, or queued if a letter came
        }
        kept = null;
        long ran = CellRun.run(cell, maxTurns, true);
        if ((ran & 1) != 0) {
            kept = cell;
            door.place(cell);
        }
        return (int) (ran >>> 1);
    }

    /** The kept actor, taken back from its door, if a letter (or a halt) has come for it; else null. */
    public ActorCell withWork() {
        ActorCell cell = kept;
        if (cell == null || !cell.hasWork()) {
            return null;
        }
        kept = door.take(); // null: a thief took it first
        return kept;
    }

    /** Lets the kept actor go ({@link CellRun#release}: idle, or queued if a letter came), unless a thief took it. */
    public void release() {
        if (kept != null) {
            kept = null;
            ActorCell cell = door.close();
            if (cell != null) {
                CellRun.release(cell);
            }
        }
    }

    /**
     * This worker, a thief, takes {@code victim}'s kept actor if it has seen it there with a letter twice; else null.
     * Never a pinned actor: it runs on its own worker only, however long that worker is away.
     */
    public ActorCell stealFrom(Worker victim) {
        ActorCell cell = victim.kept.door.peek();
        if (cell == null || !cell.roams() || !cell.hasWork() || !seen.again(victim.index, cell, 0, Worker.DOOR_SIGHTINGS)
                || !victim.kept.door.steal(cell)) {
            return null;
        }
        return cell;
    }
}
