package dev.lanehost.samples;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.ParkCallback;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalCallback;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Timer;
import dev.lanehost.lanes.TurnCallback;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A context for running a behaviour's turns by hand: its clock is set by the test, and {@link #delay} and {@link #every}
 * only remember the callback (the test runs it), allocating nothing. Everything else is not needed here and throws.
 */
final class TestContext implements ActorContext {
    long nanoTime;
    TurnCallback delayed;
    int delays;
    TurnCallback repeating;
    int everys;

    @Override
    public long nanoTime() {
        return nanoTime;
    }

    @Override
    public Timer delay(Duration delay, TurnCallback callback) {
        delayed = callback;
        delays++;
        return null;
    }

    @Override
    public Timer every(Duration period, TurnCallback callback) {
        repeating = callback;
        everys++;
        return null;
    }

    /** Runs the repeating callback, or else the last delayed one, as if its timer fired. */
    void fire() {
        TurnCallback callback = repeating;
        if (callback == null) {
            callback = delayed;
            delayed = null;
        }
        try {
            callback.run(this);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public ActorRef self() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Signal signal(SignalMode mode, SignalCallback callback, Runnable releaseHook) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> Park<T> park(ParkCallback<T> callback, Runnable releaseHook) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void monitor(ActorRef actor) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void link(ActorRef actor) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Arena arena() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean shouldYield() {
        return false; // a hand-driven clock: nothing measures the turn
    }

    @Override
    public void checkpoint() {
    }

    @Override
    public void unneeded(Duration idleTimeout, TurnCallback lastTurn) {
        throw new UnsupportedOperationException();
    }
}
