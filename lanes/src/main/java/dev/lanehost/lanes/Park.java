package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.ParkAccess;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
        Access.setParks(new ParkAccess<Park<?>, ResourceOwner<?, ?, Park<?>>, ParkCallback<?>, ActorContext>() {
            @Override
            public Park<?> newPark(ResourceOwner<?, ?, Park<?>> owner, ParkCallback<?> callback, Runnable releaseHook) {
                return new Park<>(owner, callback, releaseHook);
            }

            @Override
            public void cancelForHalt(Park<?> park) {
                park.cancelForHalt();
            }

            @Override
            public int incarnation(Park<?> park) {
                return park.incarnation;
            }

            @Override
            public void consume(Park<?> park, ActorContext context) throws Exception {
                park.consume(context);
            }

            @Override
            public void releaseUnconsumed(Park<?> park) {
                park.releaseUnconsumed();
            }
        });
    }

    /** Where a park is in its life. */
    public enum State { PENDING, DELIVERED, CONSUMED, CANCELLED }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Park.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ResourceOwner<?, ?, Park<?>> owner;
    private final ParkCallback<T> callback;
    private final Runnable releaseHook;
    private volatile State state = State.PENDING;
    private T value;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    final int incarnation;

    Park(ResourceOwner<?, ?, Park<?>> owner, ParkCallback<T> callback, Runnable releaseHook) {
        this.incarnation = owner.incarnation();
        this.owner = owner;
        this.callback = callback;
        this.releaseHook = releaseHook;
    }

    /**
     * Completes the park with a value. Any thread, once.
     *
     * @return true if this call completed it (also when its owner had halted and the value is dropped); false if it
     *         was already completed or cancelled
     */
    public boolean complete(T value) {
        if (!STATE.compareAndSet(this, State.PENDING, State.DELIVERED)) {
            return false;
        }
        this.value = value; // the mailbox offer below publishes it to the owner's turn
        owner.forgetPark(this);
        if (!owner.parkCompleted(this)) {
            end(State.CANCELLED); // the owner halted first: nobody will consume the letter
        }
        return true;
    }

    /**
     * Cancels a pending park and runs its release hook. Any thread.
     *
     * @return true if this call cancelled it
     */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, State.PENDING, State.CANCELLED)) {
            return false;
        }
        owner.forgetPark(this);
        finish();
        return true;
    }

    public State state() {
        return state;
    }

    /** The owner's turn: run the callback, then end the park. */
    void consume(ActorContext context) throws Exception {
        try {
            callback.completed(context, value);
        } finally {
            end(State.CONSUMED);
        }
    }

    /** Halt teardown of a pending park (the owner already dropped its reference). */
    void cancelForHalt() {
        if (STATE.compareAndSet(this, State.PENDING, State.CANCELLED)) {
            finish();
        }
    }

    /** A delivered park whose letter will never be consumed (its owner halted). */
    void releaseUnconsumed() {
        end(State.CANCELLED);
    }

    private void end(State terminal) {
        if (STATE.compareAndSet(this, State.DELIVERED, terminal)) {
            finish();
        }
    }

    private void finish() {
        value = null;
        owner.ended(LiveCounters.Kind.PARKS);
        if (releaseHook != null) {
            try {
                releaseHook.run();
            } catch (Throwable e) {
                RuntimeLog.hookFailed(owner.describe(), "park release hook", e);
            }
        }
    }
}
