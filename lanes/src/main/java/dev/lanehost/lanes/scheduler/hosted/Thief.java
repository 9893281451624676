package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.ActorCell;

/**
 * A worker as a thief of the actors that wait outside every queue at the other workers ({@link WorkerPool#stealNext},
 * rule 2 for a slot and a door): in a victim's {@code next} slot while the victim stays in one run, at a spinning
 * victim's door while the victim's thread does not run, and at a victim's kept-actor door with a letter. It takes one
 * only once it has seen the same actor there a number of looks in a row ({@link Sightings}, one memory per place), so
 * an actor its own worker is about to take is left to it. Its worker's thread only.
 */
public final class Thief {
    /** The thief's own worker: an actor taken from a slot or a spinner's door is homed on its shared queue. */
    private final Worker worker;
    private final Sightings inSlots;
    private final Sightings atDoors;
    private final Sightings atKeptDoors;

    Thief(Worker worker, int workers) {
        this.worker = worker;
        this.inSlots = new Sightings(workers);
        this.atDoors = new Sightings(workers);
        this.atKeptDoors = new Sightings(workers);
    }

    /**
     * A look (this worker idle) at {@code victim}'s slot: takes the actor there once it has seen it
     * {@link Worker#STUCK_SIGHTINGS} times in a row with the victim in the same run. The actor is homed on this worker.
     *
     * @return the actor to run now, or null
     */
    public ActorCell fromSlotOf(Worker victim) {
        ActorCell cell = victim.lvNext();
        if (cell == null || !inSlots.again(victim.index, cell, victim.loRuns(), Worker.STUCK_SIGHTINGS)
                || !victim.casNext(cell, null)) {
            return null;
        }
        cell.home = worker.shared; // the slot held it, so nobody else holds it now
        return cell;
    }

    /**
     * A look (this worker spinning) at {@code victim}'s door: takes the actor waiting there once it has seen it
     * {@link Worker#DOOR_SIGHTINGS} times in a row. The victim spins too and would have taken it at its next look,
     * so its thread is not running (more spinning threads than cores). The actor is homed on this worker.
     *
     * @return the actor to run now, or null
     */
    public ActorCell handedInAt(Worker victim) {
        ActorCell cell = victim.handOff.peek();
        if (cell == null || !atDoors.again(victim.index, cell, 0, Worker.DOOR_SIGHTINGS) || !victim.handOff.steal(cell)) {
            return null;
        }
        cell.home = worker.shared; // the door held it, so nobody else holds it now
        return cell;
    }

    /**
     * A look at {@code victim}'s kept actor ({@link KeptActor}): takes it once it has seen it there with a letter
     * {@link Worker#DOOR_SIGHTINGS} times in a row; else null. Never a pinned actor: it runs on its own worker only,
     * however long that worker is away. The caller moves its home.
     */
    public ActorCell keptAt(Worker victim) {
        ActorCell cell = victim.kept.waitingWithWork();
        if (cell == null || !atKeptDoors.again(victim.index, cell, 0, Worker.DOOR_SIGHTINGS) || !victim.kept.take(cell)) {
            return null;
        }
        return cell; // its turn lock let go: the thief runs it as any other actor it takes
    }
}
