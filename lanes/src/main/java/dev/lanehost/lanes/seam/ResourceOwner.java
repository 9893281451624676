package dev.lanehost.lanes.seam;

import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.Timer;
import dev.lanehost.lanes.observe.LiveCounters;

/**
 * What a {@link Timer}, {@link Signal} or {@link Park} knows of the actor that owns it: where its firing
 * goes, how it is forgotten when it ends first, and where its end is counted. The resources are API and
 * the actor is not, so they depend on this seam rather than on the actor's cell; {@code ActorCell} is the
 * one implementation.
 */
public interface ResourceOwner {
    /** A timer fell due: queue its callback as a turn. @return false if the owner has halted */
    boolean timerDue(Timer timer);

    /** A signal fired: queue its callback, with this copy of the payload, as a turn. @return false if halted */
    boolean signalFired(Signal signal, byte[] payload);

    /** A park was completed: queue its callback as a turn. @return false if the owner has halted */
    boolean parkCompleted(Park<?> park);

    /** The resource ended before the owner's teardown: the owner stops holding it. */
    void forget(Timer timer);

    void forget(Signal signal);

    void forget(Park<?> park);

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
