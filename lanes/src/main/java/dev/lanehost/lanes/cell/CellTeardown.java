package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.HaltStep;
import dev.lanehost.lanes.RuntimeObserver;

/**
 * How a halted actor ends: the halt protocol's teardown ({@link ActorCell}'s step 2) in order, under the
 * turn lock on the actor's placement; the runtime close's fallback on the closing thread; and the letters
 * that land after the teardown.
 */
public final class CellTeardown {
    private CellTeardown() {
    }

    /** Under the turn lock, once halted: the teardown the first time, then only late letters. */
    static void finish(ActorCell cell) {
        if (!cell.tornDown) {
            teardown(cell);
        } else {
            cell.mailbox.releaseUnhandled(cell, cell.runtime.droppedMessages);
        }
    }

    /** The halt protocol's step 2, in order; each step once, each reported to the observer. */
    private static void teardown(ActorCell cell) {
        cell.tornDown = true;
        ExitReason reason = cell.exitReason;
        RuntimeObserver observer = cell.runtime.observer();
        cell.context.stopped(reason);
        observer.haltStep(cell.ref, HaltStep.STOPPED);
        cell.mailbox.releaseUnhandled(cell, cell.runtime.droppedMessages);
        observer.haltStep(cell.ref, HaltStep.LETTERS);
        cell.resources.release(observer, cell.ref);
        cell.context.forgetBehavior();
        cell.runtime.halts.tornDown(cell.id, cell.name, cell.placement, reason); // before the Downs: a watcher that sees one sees the count
        cell.watchers.notifyEnded(cell, reason);
        observer.haltStep(cell.ref, HaltStep.NOTIFIED);
        cell.runtime.tornDown(cell);
    }

    /**
     * Once the runtime has closed, nothing runs the cell again, so a letter that lands after its teardown
     * would wait forever: whoever sees one (the sender after its offer, a lock holder after letting go)
     * releases it here — a task gets {@link dev.lanehost.lanes.TurnTask#abandoned()}, a delivered park its release hook. The
     * offer and the teardown's {@code tornDown} write are both volatile, so at least one side sees the other;
     * a sender that finds the lock taken leaves the letter to the holder, which calls this after letting go.
     */
    static void releaseLateLetters(ActorCell cell) {
        while (cell.tornDown && !cell.mailbox.isEmpty()) {
            if (!cell.mailbox.tryLockTurn()) {
                return;
            }
            try {
                cell.mailbox.releaseUnhandled(cell, cell.runtime.droppedMessages);
            } finally {
                cell.mailbox.unlockTurnAndFence();
            }
        }
    }

    /**
     * Runtime close, on the closing thread (a normal actor, or a lane actor whose lane thread will not):
     * tear down here, unless a turn is still running at {@code deadline} (System.nanoTime()); then its runner tears
     * down when the turn ends (the halt is already claimed). The closing thread's own turn (close() called from a
     * turn) is left to its runner at once: waiting for it would wait for ourselves.
     */
    public static void onClose(ActorCell cell, long deadline) {
        if (cell.context.turnThread() == Thread.currentThread() || !cell.mailbox.tryLockTurn(Math.max(0, deadline - System.nanoTime()))) {
            return;
        }
        try {
            finish(cell);
        } finally {
            cell.mailbox.unlockTurnAndFence(); // pairs with a runner's hand-off
        }
        releaseLateLetters(cell);
        if (!cell.isScheduled() && cell.hasWork() && cell.claimSchedule()) {
            cell.home.offer(cell, RunQueue.READY_BAND); // a runner handed the cell back while we held it
        }
    }
}
