package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.queue.MpscNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The word of an {@link ActorCell} that several threads race on to halt it, and its atomic step: the exit reason
 * (whoever halts first). The others live where their writers already write: the scheduled flag is the mailbox's idle
 * mark ({@code Mailbox.claimSchedule}), the turn lock its consumer lock ({@code Mailbox.tryLockTurn}), so no turn
 * writes the cell's own lines, which every sender reads (the cell is still written as it passes through a linked run
 * queue, whose node it is). The protocols that use them are on
 * {@code ActorCell}; a superclass rather than a field so the step is one access to the cell itself.
 */
public abstract class CellState extends MpscNode {
    private static final VarHandle EXIT_REASON;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EXIT_REASON = lookup.findVarHandle(CellState.class, "exitReason", ExitReason.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Null while the actor lives; set once, by the first halt. */
    public volatile ExitReason exitReason;

    /** Sets the exit reason if none is set: true for the one caller that halts the actor. */
    final boolean claimExit(ExitReason reason) {
        return EXIT_REASON.compareAndSet(this, (ExitReason) null, reason);
    }
}
