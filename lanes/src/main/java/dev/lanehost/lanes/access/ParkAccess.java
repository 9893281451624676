package dev.lanehost.lanes.access;

/**
 * {@code Park}'s handle, for the turn that parks.
 *
 * @param <P> the handle, a {@code Park}
 * @param <A> the park it stands for, an {@code ActorPark}
 */
@FunctionalInterface
public interface ParkAccess<P, A> {
    P handle(A park);
}
