package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.ParkCallback;
import dev.lanehost.lanes.seam.ResourceOwner;

/** {@link Park}'s parts, for the turn that makes one, the owner's resources, its letter and the mailbox. */
public interface ParkAccess {
    <T> Park<T> newPark(ResourceOwner owner, ParkCallback<T> callback, Runnable releaseHook);

    void cancelForHalt(Park<?> park);

    int incarnation(Park<?> park);

    void consume(Park<?> park, ActorContext context) throws Exception;

    void releaseUnconsumed(Park<?> park);
}
