package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;

/**
 * Thrown at a poll site (any {@link ActorContext} call, {@link ActorContext#checkpoint()}) of a turn that ran
 * on for a whole slow budget after it was asked to yield (under HOSTED: and spent half a slow budget on the CPU
 * since, or did not return slow × strike ceiling after it; {@link TurnBudget}). It ends the turn and its actor
 * halts with {@link ExitReason#BUDGET}. Catching it does not save the turn: every later poll site of the same
 * turn throws again, and the actor halts when the turn returns. An {@code Error}, like other signals a program
 * should not handle, so {@code catch (Exception e)} lets it pass.
 */
public final class TurnDisrupted extends Error {
    static {
        Access.setDisruptions(TurnDisrupted::new);
    }

    private static final long serialVersionUID = 1L;

    TurnDisrupted(String message) {
        super(message, null, false, false); // no stack trace: thrown on purpose, possibly many times in a row
    }
}
