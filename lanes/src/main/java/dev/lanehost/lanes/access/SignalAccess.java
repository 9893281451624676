package dev.lanehost.lanes.access;

/**
 * {@code Signal}'s handle, for the turn that makes a signal.
 *
 * @param <S> the handle, {@code Signal}
 * @param <A> the signal it stands for, an {@code ActorSignal}
 */
@FunctionalInterface
public interface SignalAccess<S, A> {
    S handle(A signal);
}
