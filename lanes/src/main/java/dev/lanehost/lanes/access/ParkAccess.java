package dev.lanehost.lanes.access;

/**
 * {@code Park}'s parts, for the turn that makes one, the owner's resources, its letter and the mailbox.
 *
 * @param <P> a park of any value, {@code Park<?>}; the turn that makes one gives it its value's type
 * @param <O> its owner, the {@code ResourceOwner} seam
 * @param <B> its callback, a {@code ParkCallback<?>}
 * @param <X> the turn's context its callback runs with, an {@code ActorContext}
 */
public interface ParkAccess<P, O, B, X> {
    P newPark(O owner, B callback, Runnable releaseHook);

    void cancelForHalt(P park);

    int incarnation(P park);

    void consume(P park, X context) throws Exception;

    void releaseUnconsumed(P park);
}
