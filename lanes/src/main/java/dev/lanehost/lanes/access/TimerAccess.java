package dev.lanehost.lanes.access;

/**
 * {@code Timer}'s handle, for the turn that arms a timer.
 *
 * @param <T> the handle, {@code Timer}
 * @param <A> the timer it stands for, an {@code ActorTimer}
 */
@FunctionalInterface
public interface TimerAccess<T, A> {
    T handle(A timer);
}
