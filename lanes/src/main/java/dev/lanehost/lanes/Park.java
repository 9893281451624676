package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.ParkAccess;
import dev.lanehost.lanes.resource.ActorPark;

/**
 * A pending callback an actor registered and some producer completes once, from any thread: the
 * completion becomes a letter, and the callback runs as a turn of the owner with the value.
 *
 * <p>A park is in exactly one state at a time: {@link State#PENDING} (registered with its owner),
 * {@link State#DELIVERED} (its letter is in the owner's mailbox), then {@link State#CONSUMED} or
 * {@link State#CANCELLED}. Its release hook runs exactly once, when it ends either way, so a hook may
 * stop its producer. It runs on the thread that ends the park, which is the producer's own when the producer
 * completes it after its owner halted: a hook that joins its producer checks {@code Thread.currentThread()} first.
 *
 * @param <T> the value type
 */
public final class Park<T> {
    static {
        Access.setParks((ParkAccess<Park<?>, ActorPark<?>>) Park::new);
    }

    private static final State[] STATES = State.values();

    /** Where a park is in its life. */
    public enum State { PENDING, DELIVERED, CONSUMED, CANCELLED }

    private final ActorPark<T> park;

    private Park(ActorPark<T> park) {
        this.park = park;
    }

    /**
     * Completes the park with a value. Any thread, once.
     *
     * @return true if this call completed it (also when its owner had halted and the value is dropped); false if it
     *         was already completed or cancelled
     */
    public boolean complete(T value) {
        return park.complete(value);
    }

    /**
     * Cancels a pending park and runs its release hook. Any thread.
     *
     * @return true if this call cancelled it
     */
    public boolean cancel() {
        return park.cancel();
    }

    public State state() {
        return STATES[park.state().ordinal()];
    }
}
