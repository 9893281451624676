package dev.lanehost.lanes.access;

/**
 * {@code Timer}'s parts, for the timer queue, the owner's resources and its letter.
 *
 * @param <T> the timer, {@code Timer}
 * @param <O> its owner, the {@code ResourceOwner} seam
 * @param <Q> the queue that fires it, a {@code TimerQueue}
 * @param <A> its place in that queue's inbox, a {@code TimerQueue.Arrival}
 * @param <B> its callback, a {@code TurnCallback}
 * @param <D> the letter it delivers, a {@code Letter.TimerDue}
 * @param <X> the turn's context its callback runs with, an {@code ActorContext}
 */
public interface TimerAccess<T, O, Q, A, B, D, X> {
    T newTimer(O owner, Q queue, long deadline, long sequence, long periodNanos, B callback);

    A arrival(T timer);

    long deadline(T timer);

    void fire(T timer);

    D letter(T timer);

    void cancelForHalt(T timer);

    int incarnation(T timer);

    void run(T timer, X context) throws Exception;

    boolean held(T timer);

    void held(T timer, boolean held);

    T previousHeld(T timer);

    void previousHeld(T timer, T previous);

    T nextHeld(T timer);

    void nextHeld(T timer, T next);
}
