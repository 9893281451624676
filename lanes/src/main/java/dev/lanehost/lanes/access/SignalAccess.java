package dev.lanehost.lanes.access;

/**
 * {@code Signal}'s parts, for the turn that makes one, the owner's resources and its letter.
 *
 * @param <S> the signal, {@code Signal}
 * @param <O> its owner, the {@code ResourceOwner} seam
 * @param <M> its mode, a {@code SignalMode}
 * @param <B> its callback, a {@code SignalCallback}
 * @param <X> the turn's context its callback runs with, an {@code ActorContext}
 */
public interface SignalAccess<S, O, M, B, X> {
    S newSignal(O owner, M mode, B callback, Runnable releaseHook);

    void cancelForHalt(S signal);

    int incarnation(S signal);

    void run(S signal, X context, byte[] payload) throws Exception;
}
