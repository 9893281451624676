package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellRun;

/**
 * The actor a worker keeps scheduled after a run that left its mailbox empty ({@link WorkerPool}'s last rule): its next
 * letter finds it scheduled, so the sender queues nothing and wakes nobody, and the worker runs it after the run in
 * progress ({@link #takeBack}). The worker keeps one such actor at a time, through the runs of others: when it keeps
 * the next one, it swaps it in and lets the one before go, or, if a letter has come for that one meanwhile and the
 * actor just run came from this worker's own turns (its next slot, or this door), runs it next ({@value #AHEAD_RUNS}
 * times at most between two polls of the worker's queues). So two actors sending to each other on one worker pass
 * their letters with no queue, no slot and no wake-up, and neither is made idle and runnable again for each letter.
 *
 * <p>The same swap happens inside a run, too ({@link #swapFor}): when the actor running has emptied its mailbox and the
 * kept one has a letter, the run puts the first at the door, takes the second off it and goes on with it, up to the
 * run's {@code turnsPerRun} turns in all. The pair's two actors so take turns in one run, as one actor takes its
 * letters, with no run's end, return to the worker's loop and next run's start for each letter: those were ~40 % of a
 * pair's turn. The door holds the actor not running at every moment, as between runs, so thieves and the budget watch
 * see the pair as before; the whole run counts as one run ahead of the queues.
 *
 * <p>After an actor from the worker's queues (or stolen, or handed in from off the pool) a kept actor with a letter is
 * let go instead, queued behind the others: its letters come from actors the worker did not wake, as the answers of
 * many actors come to the one that sent them work. Run after each of them, it would take its letters one at a time,
 * each just written, half of them by the other core: a fan-in of 1,000 answers a round read ~7 M messages/s that way,
 * where letting it go and running it later with its letters gathered read ~17 M.
 *
 * <p>The worker keeps the actor's turn lock too, so a run of the kept actor takes no lock ({@link #runTakenBack}), and
 * whoever else takes it off the door lets the lock go: a message costs its offer and the swap. The worker lets its kept
 * actor go before it parks and when the pool stops; a snapshot shows it IDLE.
 *
 * <p>The kept actor waits at a door of its own ({@link HandOff}, the same protocol as the door actors are handed in
 * at, which stays open for them): the worker takes it back when a letter has come, and another spinning worker that
 * sees it there with a letter twice in a row steals it, as it steals an actor left at a door (unless it is pinned to
 * its worker), so a worker that lost its core does not hold a letter until its next time slice. The budget watch
 * takes it from a worker it finds in one run for a whole look with a letter waiting there
 * ({@link WorkerPool#rescueStuckWork()}). Exactly one of them gets the actor: the word's CAS. The other methods are
 * its worker's thread only.
 */
public final class KeptActor implements CellRun.Keeper {
    /** Runs a kept actor takes ahead of the worker's slot and queues between two polls of the queues. */
    public static final int AHEAD_RUNS = 32;
    /** The kept actor, or CLOSED, or OPEN once a thief (or the budget watch) took it. Read by thieves. */
    private final HandOff<ActorCell> door = new HandOff<>();
    /**
     * The actor this worker placed at its door and has not taken back: null once taken or let go. Still set after a
     * thief took it until the worker's next look finds the door without it ({@link #withWork}); harmless meanwhile:
     * the door is open then, so a swap or a take finds nothing, and a look at the actor's mailbox changes nothing.
     */
    private ActorCell kept;
    /** Taken off the door by a swap with a letter waiting: the worker runs it next. Holds its schedule; never at the door. */
    private ActorCell swapped;
    /** Runs the kept actor took ahead of the worker's slot and queues since the worker last polled its queues. */
    private int aheadRuns;
    /** The actor the run in progress went on with after a {@link #swapFor}, or null: the one it ends with. */
    private ActorCell swappedIn;

    KeptActor() {
    }

    /**
     * Runs {@code cell} and keeps it if its run allows, the actor kept before staying kept meanwhile.
     *
     * @param fromOwnTurns true if {@code cell} came from the worker's next slot (one of its own turns made it runnable):
     *                     then a letter waiting for the actor kept before has it run next, as a pair's partner, in
     *                     this run if it has turns left ({@link #swapFor}), else in the next
     * @return the turns run, of whichever actors the run went on with
     */
    public int run(ActorCell cell, int maxTurns, boolean fromOwnTurns) {
        return kept(cell, CellRun.run(cell, maxTurns, this, fromOwnTurns), fromOwnTurns);
    }

    /** {@link #run} of an actor {@link #takeBack} or {@link #withWork} gave back: its turn lock is held already. */
    public int runTakenBack(ActorCell cell, int maxTurns) {
        return kept(cell, CellRun.runHeld(cell, maxTurns, this, true), true);
    }

    private int kept(ActorCell cell, long ran, boolean fromOwnTurns) {
        ActorCell last = swappedIn;
        swappedIn = null;
        if ((ran & 1) != 0) {
            keep(last != null ? last : cell, fromOwnTurns);
        }
        return (int) (ran >>> 1);
    }

    /**
     * A pair's switch inside one run ({@link CellRun.Keeper}): the actor just run, its mailbox empty, goes to the door
     * in place of the kept one, which the run goes on with if a letter has come for it. The same swap under the same
     * conditions as between two runs ({@link #keep}); the run stays one run ahead of the queues, however many switches
     * it makes. Asked only in runs of actors from the worker's own turns ({@code fromOwnTurns}), the pair's letters' way.
     */
    @Override
    public ActorCell swapFor(ActorCell emptied) {
        ActorCell waiting = kept;
        if (waiting == null || waiting == emptied || !runsNext(waiting) || !door.swap(waiting, emptied)) {
            return null; // nothing has changed: a door a thief emptied is left to keep(), as after any run
        }
        kept = emptied;
        swappedIn = waiting;
        return waiting;
    }

    /**
     * Places {@code cell} at the door in place of the actor kept before, in one CAS that also takes that one back, which
     * then runs next if a letter came for it and {@code cell} came from this worker's own turns, or is let go. The door
     * is open, not the actor's, if a thief took it: then nobody else writes the door, and a plain place does.
     */
    private void keep(ActorCell cell, boolean fromOwnTurns) {
        ActorCell previous = kept;
        kept = cell;
        if (previous == null || previous == cell || !door.swap(previous, cell)) {
            door.place(cell);
            return;
        }
        if (fromOwnTurns && runsNext(previous)) {
            swapped = previous;
        } else {
            CellRun.release(previous); // idle, or queued behind the worker's others if a letter came
        }
    }

    /** The rule for a pair's partner taken off the door: a letter has come for it, and the worker has not run ahead too long. */
    private boolean runsNext(ActorCell partner) {
        return aheadRuns < AHEAD_RUNS && partner.hasWorkForHolder();
    }

    /**
     * The kept actor to run ahead of the worker's slot and queues: the one the last run's swap took back with a letter,
     * or the one at the door if a letter has come for it; null if neither, or if it has run ahead {@value #AHEAD_RUNS}
     * times since the worker last polled its queues (then the slot and queues come first). So a letter for the kept
     * actor waits for the run in progress, as an actor in the slot does.
     */
    public ActorCell takeBack() {
        ActorCell cell = swapped;
        if (cell != null) {
            swapped = null;
        } else if (aheadRuns >= AHEAD_RUNS || (cell = withWork()) == null) {
            return null;
        }
        aheadRuns++;
        return cell;
    }

    /** The worker is about to poll its queues: its kept actor may run ahead of them again. */
    public void queuesPolled() {
        aheadRuns = 0;
    }

    /**
     * The kept actor, taken back from its door, if a letter has been stored in its mailbox (or a halt has come); else
     * null. The worker holds the actor's turn lock, so it looks as the mailbox's consumer ({@link ActorCell#hasWorkForHolder}):
     * at the slot the next letter lands in, which the sender writes once, not at the senders' position, which every
     * send's claim changes. Looking again and again while it spins, it so keeps no line a sender must take back to send.
     */
    public ActorCell withWork() {
        ActorCell cell = kept;
        if (cell == null) {
            return null;
        }
        if (door.peek() != cell) { // a thief took it: another worker runs it now, and its mailbox is not ours to read
            kept = null;
            return null;
        }
        if (!cell.hasWorkForHolder()) { // a thief may take it meanwhile: the look changes nothing, and the take decides
            return null;
        }
        kept = null;
        return door.take(); // null: a thief took it first
    }

    /**
     * Lets the kept actor go ({@link CellRun#release}: its turn lock, and idle, or queued if a letter came), unless a
     * thief took it.
     */
    public void release() {
        ActorCell taken = swapped; // none between runs; released all the same if the pool stops after one
        swapped = null;
        if (taken != null) {
            CellRun.release(taken);
        }
        if (kept != null) {
            kept = null;
            ActorCell cell = door.close();
            if (cell != null) {
                CellRun.release(cell);
            }
        }
    }

    /** The roaming actor at this door with a letter waiting, or null. Any thread (racy: a look before {@link #take}). */
    ActorCell waitingWithWork() {
        ActorCell cell = door.peek();
        return cell != null && cell.roams() && cell.hasWork() ? cell : null;
    }

    /**
     * Takes {@code cell} off this door if it still waits there, its turn lock let go: a thief, which runs it, or the
     * budget watch, which queues it. @return true if this call took it (it holds the actor's schedule now)
     */
    boolean take(ActorCell cell) {
        if (!door.steal(cell)) {
            return false;
        }
        cell.mailbox.unlockTurn();
        return true;
    }

    /**
     * The pool has stopped and this worker's thread did not end in its grace (a turn that never returns): lets the
     * actor at its door go, so the close can tear it down. Any thread; the door's CAS decides against the worker.
     */
    void letGoAfterStop() {
        ActorCell cell = door.peek();
        if (cell != null && door.steal(cell)) {
            CellRun.release(cell);
        }
    }
}
