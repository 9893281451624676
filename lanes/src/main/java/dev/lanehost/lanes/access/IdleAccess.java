package dev.lanehost.lanes.access;

import dev.lanehost.lanes.idle.IdleStep;
import dev.lanehost.lanes.idle.SpinBudget;

/**
 * {@code IdleStrategy}'s rules, for HOSTED's workers.
 *
 * @param <S> the strategy, {@code IdleStrategy}
 */
public interface IdleAccess<S> {
    SpinBudget newSpinBudget(S strategy);

    IdleStep step(S strategy, int round, int rounds);

    int roundsBeforePark(S strategy);

    boolean parks(S strategy);
}
