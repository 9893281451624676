package dev.lanehost.lanes.access;

import dev.lanehost.lanes.TurnDisrupted;

/** {@link TurnDisrupted}'s constructor, for the turn clock. */
public interface DisruptionAccess {
    TurnDisrupted newTurnDisrupted(String message);
}
