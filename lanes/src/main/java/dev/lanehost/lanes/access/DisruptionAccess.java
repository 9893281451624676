package dev.lanehost.lanes.access;

/**
 * {@code TurnDisrupted}'s constructor, for the turn clock.
 *
 * @param <D> the error, {@code TurnDisrupted}
 */
public interface DisruptionAccess<D> {
    D newTurnDisrupted(String message);
}
