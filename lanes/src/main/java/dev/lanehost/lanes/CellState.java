package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The three words of an {@link ActorCell} that several threads race on, and their atomic steps: the
 * scheduled flag (senders and the runner), the turn lock (the runner and a closing thread) and the exit
 * reason (whoever halts first). The protocols that use them are on {@code ActorCell}; a superclass rather
 * than a field so each step is one access to the cell itself.
 */
abstract class CellState extends MpscNode {
    private static final VarHandle SCHEDULED;
    private static final VarHandle TURN_LOCK;
    private static final VarHandle EXIT_REASON;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SCHEDULED = lookup.findVarHandle(CellState.class, "scheduled", int.class);
            TURN_LOCK = lookup.findVarHandle(CellState.class, "turnLock", int.class);
            EXIT_REASON = lookup.findVarHandle(CellState.class, "exitReason", ExitReason.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while the cell is queued on its run queue or being run; 0 when idle. */
    private volatile int scheduled;
    @SuppressWarnings("unused")
    private volatile int turnLock;
    /** Null while the actor lives; set once, by the first halt. */
    volatile ExitReason exitReason;

    /**
     * 0→1: the winner queues the cell. A plain look first: senders to a busy actor find it scheduled and skip the
     * CAS, so they do not take its line from the runner. The look is volatile, and follows the caller's volatile
     * offer, which is what the protocol's re-check pairs with; a sender that sees 1 leaves its letter to the
     * runner, whose store of 0 comes before its re-check of the mailbox.
     */
    final boolean claimSchedule() {
        return scheduled == 0 && SCHEDULED.compareAndSet(this, 0, 1);
    }

    /** A volatile store of 0, which the protocols follow with a re-check. */
    final void unschedule() {
        scheduled = 0;
    }

    final boolean isScheduled() {
        return scheduled != 0;
    }

    final boolean tryLockTurn() {
        return TURN_LOCK.compareAndSet(this, 0, 1);
    }

    /**
     * Tries for the turn lock for at most {@code patienceNanos}, yielding between tries: only the closing
     * thread waits for it.
     */
    final boolean tryLockTurn(long patienceNanos) {
        long deadline = System.nanoTime() + patienceNanos;
        while (!tryLockTurn()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** The runner's unlock: release orders the turn before whoever takes the lock next. */
    final void unlockTurn() {
        TURN_LOCK.setRelease(this, 0);
    }

    /** A volatile unlock, for a holder that re-checks the scheduled flag afterwards (pairs with a hand-off). */
    final void unlockTurnAndFence() {
        TURN_LOCK.setVolatile(this, 0);
    }

    final boolean isTurnLocked() {
        return (int) TURN_LOCK.getVolatile(this) != 0;
    }

    /** Sets the exit reason if none is set: true for the one caller that halts the actor. */
    final boolean claimExit(ExitReason reason) {
        return EXIT_REASON.compareAndSet(this, (ExitReason) null, reason);
    }
}
