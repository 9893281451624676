package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Two of the words of an {@link ActorCell} that several threads race on, and their atomic steps: the turn lock (the
 * runner and a closing thread) and the exit reason (whoever halts first). The third, the scheduled flag, is the
 * mailbox's idle mark ({@link Mailbox#claimSchedule()}). The protocols that use them are on {@code ActorCell}; a
 * superclass rather than a field so each step is one access to the cell itself.
 */
abstract class CellState extends MpscNode {
    private static final VarHandle TURN_LOCK;
    private static final VarHandle EXIT_REASON;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TURN_LOCK = lookup.findVarHandle(CellState.class, "turnLock", int.class);
            EXIT_REASON = lookup.findVarHandle(CellState.class, "exitReason", ExitReason.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private volatile int turnLock;
    /** Null while the actor lives; set once, by the first halt. */
    volatile ExitReason exitReason;

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
