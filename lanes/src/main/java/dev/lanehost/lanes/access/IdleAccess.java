package dev.lanehost.lanes.access;

import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.scheduler.hosted.IdleStep;
import dev.lanehost.lanes.scheduler.hosted.SpinBudget;

/** {@link IdleStrategy}'s rules, for HOSTED's workers. */
public interface IdleAccess {
    SpinBudget newSpinBudget(IdleStrategy strategy);

    IdleStep step(IdleStrategy strategy, int round, int rounds);

    int roundsBeforePark(IdleStrategy strategy);

    boolean parks(IdleStrategy strategy);
}
