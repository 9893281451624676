package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellRun;

/**
 * The actor a worker keeps scheduled after a run that left its mailbox empty ({@link WorkerPool}'s last rule): its next
 * letter finds it scheduled, so the sender queues nothing and wakes nobody, and the worker runs it when its own queues
 * are empty. The worker lets it go before it runs any other actor, before it parks, and when the pool stops. Its
 * worker's thread only.
 *
 * <p>It is in no queue and at no door, so no thief takes it: a letter for it waits for its worker, which spins idle
 * meanwhile, as an actor in the worker's next slot waits for it. Only a worker that lost its core (more spinning
 * threads than cores) keeps such a letter waiting longer, until its next time slice.
 */
final class KeptActor {
    private ActorCell kept;

    /** Runs {@code cell}, letting any other kept actor go first, and keeps it if its run allows. @return the turns run */
    int run(ActorCell cell, int maxTurns) {
        if (kept != cell) {
            release(); // other work first: the kept actor is idle, or queued if a letter came
        }
        kept = null;
        long ran = CellRun.run(cell, maxTurns, true);
        if ((ran & 1) != 0) {
            kept = cell;
        }
        return (int) (ran >>> 1);
    }

    /** The kept actor if a letter (or a halt) has come for it since its run, else null. */
    ActorCell withWork() {
        return kept != null && kept.hasWork() ? kept : null;
    }

    /** Lets the kept actor go ({@link CellRun#release}): idle, or queued if a letter came. */
    void release() {
        if (kept != null) {
            ActorCell cell = kept;
            kept = null;
            CellRun.release(cell);
        }
    }
}
