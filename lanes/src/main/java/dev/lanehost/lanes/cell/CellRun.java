package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.mailbox.Letter;

/**
 * An actor's run step: its run-queue consumer takes the turn lock, runs letters as turns (or the halt teardown), lets
 * the lock go and requeues the cell or marks it idle. The scheduling protocol it follows is on {@link ActorCell}.
 */
public final class CellRun {

    private CellRun() {
    }

    /**
     * Runs up to {@code maxTurns} letters, one turn each (or the halt teardown), under one hold of the turn
     * lock, then requeues the cell if it has more to do. It stops early when the mailbox is empty, the actor
     * halts, or a turn was asked to yield. Called only by the consumer that polled the cell from its run queue.
     *
     * <p>If the turn lock is taken, the closing thread is tearing this actor down (runtime close fell back
     * to it) and may be inside a user hook for as long as the hook likes: the runner does not wait, it
     * hands the cell back ({@link #handOff}) and its drive goes on.
     *
     * @return the number of turns run, which is the number of letters taken by turns
     */
    static int run(ActorCell cell, int maxTurns) {
        return (int) (run(cell, maxTurns, null, false) >>> 1);
    }

    /**
     * A runner that keeps the schedule and turn lock of the actor it ran last (a HOSTED worker's {@code KeptActor}), and
     * may go on in the same run with the actor it kept before, as the two halves of a pair: one's turns send to the
     * other, so when one's mailbox is empty, the other's is not.
     */
    public interface Keeper {
        /**
         * {@code emptied}'s run would end with the actor kept (its mailbox empty, nothing else to do): keep it now, in
         * place of the actor kept before, and hand that one back to run next in the same run, if a letter waits for it.
         * The runner's thread, holding {@code emptied}'s schedule and turn lock.
         *
         * @return the actor to run next, whose schedule and turn lock the caller now holds; or null (then nothing has
         *         changed: the run ends, and {@code emptied} is the caller's to keep)
         */
        ActorCell swapFor(ActorCell emptied);
    }

    /**
     * {@link #run(ActorCell, int)}, for a runner that keeps the schedule of an actor whose mailbox it leaves empty
     * ({@code keeper}): such an actor stays scheduled and its turn lock stays held, both by the caller, which must look at
     * it again and either run it with {@link #runHeld} or let both go with {@link #release}. A HOSTED worker keeps the last
     * actor it ran this way, so the actor's next letter needs no run queue or door, and its next run no lock (see
     * {@code KeptActor}). With {@code pairs}, the run goes on with the actor kept before when that one has a letter and
     * this one has none ({@link Keeper#swapFor}), {@code maxTurns} turns in all: the actor run last is the one kept or let
     * go.
     *
     * @return the turns run, shifted left by one, with the lowest bit set if the caller keeps the schedule and the lock
     *         of the actor run last
     */
    public static long run(ActorCell cell, int maxTurns, Keeper keeper, boolean pairs) {
        if (!cell.mailbox.tryLockTurn()) {
            handOff(cell);
            return 0;
        }
        return runLocked(cell, maxTurns, keeper, pairs);
    }

    /** {@link #run(ActorCell, int, Keeper, boolean)} of an actor its caller kept: its schedule and turn lock are held already. */
    public static long runHeld(ActorCell cell, int maxTurns, Keeper keeper, boolean pairs) {
        return runLocked(cell, maxTurns, keeper, pairs);
    }

    private static long runLocked(ActorCell cell, int maxTurns, Keeper keeper, boolean pairs) {
        int ran = 0;
        int band = RunQueue.READY_BAND;
        boolean keep = false;
        try {
            while (true) {
                while (cell.exitReason == null) {
                    Letter letter = cell.context.isHydrating() ? hydrationStart(cell) : cell.mailbox.take();
                    if (letter == null) {
                        break;
                    }
                    band = turn(cell, letter);
                    if (++ran >= maxTurns || band != RunQueue.READY_BAND) {
                        break;
                    }
                }
                if (cell.exitReason != null) {
                    CellTeardown.finish(cell);
                }
                keep = keeper != null && band == RunQueue.READY_BAND && cell.exitReason == null
                        && !cell.runtime.isClosed() && !cell.hasWorkForHolder();
                ActorCell partner = keep && pairs && ran < maxTurns ? keeper.swapFor(cell) : null;
                if (partner == null) {
                    break;
                }
                cell = partner; // the one just run is kept now, its partner ours to run: the same state as at the start
                keep = false;
            }
        } finally {
            // Kept: still scheduled and still locked, and release() lets both go (only a late letter after a teardown
            // looks for this lock, and a kept actor is not torn down). Halted: afterRun may release late letters, which
            // a sender that found this lock taken left to us, so the unlock must be seen before our look at the mailbox
            // (a store, then a load: a fence between).
            if (!keep) {
                if (cell.exitReason == null) {
                    cell.mailbox.unlockTurn();
                } else {
                    cell.mailbox.unlockTurnAndFence();
                }
            }
        }
        if (keep) {
            return (long) ran << 1 | 1;
        }
        afterRun(cell, band);
        return (long) ran << 1;
    }

    /**
     * The holder of a kept schedule and turn lock ({@link #run(ActorCell, int, boolean)}) lets both go: the actor is idle
     * now unless a letter came (or a halt) since, in which case it is queued again, as after any run.
     */
    public static void release(ActorCell cell) {
        cell.mailbox.unlockTurn();
        afterRun(cell, RunQueue.READY_BAND);
    }

    /**
     * The fresh life's start after a hydration: a letter no sender queued, yet its turn is counted like the others,
     * and a lane settles its backlog by the turns its drive ran. So the lane counts it in first, or every hydration
     * would leave the backlog one letter short for good (admitting one letter past the lane's capacity).
     */
    private static Letter hydrationStart(ActorCell cell) {
        if (cell.lane != null) {
            cell.lane.letterQueued();
        }
        return new Letter.Start();
    }

    /** One turn, in its run queue's turn slot (where the budget watch finds it). */
    private static int turn(ActorCell cell, Letter letter) {
        if (!cell.watched) {
            return cell.context.run(letter); // no budget watch to find the turn: SINGLE_THREAD, SIMULATED
        }
        cell.home.turnStarting(cell);
        if (cell.runtime.budgetWatchAsleep) {
            cell.runtime.wakeBudgetWatch(); // the first turn after a quiet spell; a plain load otherwise
        }
        int band = cell.context.run(letter);
        cell.home.turnEnded();
        return band;
    }

    /** After the turn lock is let go: requeue (in {@code band}) if there is more to do, else clear the scheduled flag. */
    private static void afterRun(ActorCell cell, int band) {
        if (cell.runtime.isClosed()) {
            CellTeardown.releaseLateLetters(cell);
        }
        if (!cell.mailbox.isEmpty() || (cell.context.isHydrating() && cell.exitReason == null) || !cell.mailbox.unscheduleIfEmpty()) {
            cell.home.requeue(cell, band); // still ours; after a yield request, behind every ready actor
        } else if (cell.exitReason != null && !cell.tornDown && cell.claimSchedule()) {
            cell.home.offer(cell, band); // a halt whose schedule() found the actor still ours, before the idle mark
        }
    }

    /**
     * The runner found the turn lock taken: give up the schedule (so the lock holder, which re-checks after
     * letting go, requeues the cell if work is left), then re-check ourselves in case it already let go.
     * A CAS then a volatile load on both sides, so at least one of them sees the other.
     */
    private static void handOff(ActorCell cell) {
        cell.mailbox.unschedule();
        if (!cell.mailbox.isTurnLocked() && cell.hasWork() && cell.claimSchedule()) {
            cell.home.offer(cell, RunQueue.READY_BAND);
        }
    }
}
