package dev.lanehost.lanes.seam;


/**
 * What a {@code Timer}, {@code Signal} or {@code Park} knows of the actor that owns it: where its firing
 * goes, how it is forgotten when it ends first, and where its end is counted. The resources are API and
 * the actor is not, so they depend on this seam rather than on the actor's cell; {@code ActorCell} is the
 * one implementation. The seam only passes the resources through, so it is generic over them and names no
 * API class: the cell gives the types ({@code ResourceOwner<ActorTimer, Signal, Park<?>>}), and each resource names its
 * own kind alone ({@code ResourceOwner<ActorTimer, ?, ?>}).
 *
 * @param <T> the timer, an {@code ActorTimer}
 * @param <S> the signal, {@code Signal}
 * @param <P> a park of any value, {@code Park<?>}
 */
public interface ResourceOwner<T, S, P> {
    /** A timer fell due: queue its callback as a turn. @return false if the owner has halted */
    boolean timerDue(T timer);

    /** A signal fired: queue its callback, with this copy of the payload, as a turn. @return false if halted */
    boolean signalFired(S signal, byte[] payload);

    /** A park was completed: queue its callback as a turn. @return false if the owner has halted */
    boolean parkCompleted(P park);

    /** The resource ended before the owner's teardown: the owner stops holding it. */
    void forgetTimer(T timer);

    void forgetSignal(S signal);

    void forgetPark(P park);

    /** A resource of this kind ended, whichever way. */
    void ended(LiveCounters.Kind kind);

    /**
     * Which life of the actor this is: 0, then one more each time a supervisor hydrates it. A resource remembers
     * the life that made it, so a letter it delivered to an earlier life is dropped, never run by a fresh state.
     */
    int incarnation();

    /** The owner, for a log line: the runtime's words, nothing of the user's. */
    String describe();
}
