package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.Delivery;
import dev.lanehost.lanes.ReusableTask;
import dev.lanehost.lanes.TurnTask;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.TaskAccess;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.queue.MpscChunkQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The senders' side of an actor ({@link ActorCell}'s scheduling protocol, steps 1 and 2): a letter into its mailbox,
 * admitted against the mailbox's and the lane's capacity or (the runtime's own letters) not, and the actor queued if
 * the letter found it idle. Any thread.
 */
final class CellAdmission {
    private static final TaskAccess<ReusableTask, Letter.Reusable> TASKS = Access.tasks();

    private CellAdmission() {
    }

    /** {@link ActorCell#deliver}: appends a letter and makes the actor runnable. @return false if the actor has halted */
    static boolean deliver(ActorCell cell, Letter letter) {
        if (cell.exitReason != null) {
            return false;
        }
        queued(cell, cell.mailbox.offer(letter));
        return true;
    }

    /**
     * A letter is in the mailbox: queue the actor if the letter found it idle ({@code madeRunnable}), and wake a
     * blocked receiver.
     */
    private static void queued(ActorCell cell, boolean madeRunnable) {
        if (madeRunnable) {
            cell.enqueue();
        }
        if (cell.blocking) {
            Thread waiting = cell.receiver; // read after the offer: pairs with receive's announce-then-look
            if (waiting != null) {
                LockSupport.unpark(waiting);
            }
        }
        if (cell.runtime.isClosed()) {
            CellTeardown.releaseLateLetters(cell); // the actor may have been torn down between our check and our offer
        }
    }

    /** {@link ActorCell#offerTask}: a reusable task's own letter, claimed for the offer, or a new one. */
    static Delivery offerTask(ActorCell cell, TurnTask task) {
        if (!(task instanceof ReusableTask reusable)) {
            return admit(cell, new Letter.Task(task));
        }
        Letter.Reusable letter = TASKS.letter(reusable);
        if (!letter.claim()) {
            throw new IllegalStateException("the task is already queued; a ReusableTask may be offered again once it has run or been abandoned");
        }
        Delivery delivery = null;
        try {
            delivery = admit(cell, letter);
            return delivery;
        } finally {
            if (delivery != Delivery.QUEUED) {
                letter.unclaim(); // never queued: refused, or the offer threw (no chunk for it)
            }
        }
    }

    /**
     * Messages and tasks are admitted against the mailbox's and the lane's capacity; the runtime's own letters
     * (timers, signals, parks, downs, exits) never are: each answers a resource the actor already holds, and
     * refusing it would drop it.
     */
    static Delivery admit(ActorCell cell, Letter letter) {
        // A send that begins after an isClosed() read true is refused: the close's volatile write of the flag precedes
        // that read, which happens-before this volatile read, so this one reads true as well. A send past this check as
        // the close begins is the race left: its letter is dropped and counted (halt, or queued()'s late release).
        if (cell.exitReason != null || cell.runtime.isClosed()) {
            return Delivery.TERMINATED;
        }
        int queued = cell.mailbox.offerIfRoom(letter, cell.mailboxCapacity);
        if (queued == MpscChunkQueue.FULL) {
            return refused(cell);
        }
        queued(cell, queued == MpscChunkQueue.QUEUED_WAS_IDLE); // a halt since the check above is deliver's race: the late letter is released
        return Delivery.QUEUED;
    }

    private static Delivery refused(ActorCell cell) {
        cell.runtime.refusedLetters.increment();
        if (cell.lane != null) {
            cell.lane.letterRefused();
        }
        return Delivery.FULL;
    }
}
