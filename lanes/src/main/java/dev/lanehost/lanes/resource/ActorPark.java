package dev.lanehost.lanes.resource;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ParkCallback;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An actor's park as the runtime keeps it: its callback, value, release hook, owner and the state its handle
 * {@link dev.lanehost.lanes.Park} documents, which hands {@code complete}, {@code cancel} and {@code state} here.
 *
 * @param <T> the value type
 */
public final class ActorPark<T> implements Letter.Completed {
    /** Where a park is in its life: {@code Park.State}'s values, in its order. */
    public enum State { PENDING, DELIVERED, CONSUMED, CANCELLED }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ActorPark.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ResourceOwner<?, ?, ActorPark<?>> owner;
    private final ParkCallback<T> callback;
    private final Runnable releaseHook;
    private volatile State state = State.PENDING;
    private T value;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    private final int incarnation;

    public ActorPark(ResourceOwner<?, ?, ActorPark<?>> owner, ParkCallback<T> callback, Runnable releaseHook) {
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

    @Override
    public int incarnation() {
        return incarnation;
    }

    /** The owner's turn: run the callback, then end the park. */
    @Override
    public void consume(ActorContext context) throws Exception {
        try {
            callback.completed(context, value);
        } finally {
            end(State.CONSUMED);
        }
    }

    /** Halt teardown of a pending park (the owner already dropped its reference). */
    public void cancelForHalt() {
        if (STATE.compareAndSet(this, State.PENDING, State.CANCELLED)) {
            finish();
        }
    }

    /** A delivered park whose letter will never be consumed (its owner halted). */
    @Override
    public void releaseUnconsumed() {
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
