package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.SignalAccess;
import dev.lanehost.lanes.resource.ActorSignal;

/**
 * A doorbell into an actor that any thread may ring, including a foreign (C-created) one: each firing
 * becomes a letter on the owner's placement, where the callback runs as a turn with a copy of the
 * payload.
 *
 * <p>The release hook runs exactly once, on the thread that detaches the signal: the firing thread of a
 * one-shot, the thread that calls {@link #cancel()}, or the owner's placement when the owner halts.
 */
public final class Signal {
    static {
        Access.setSignals((SignalAccess<Signal, ActorSignal>) Signal::new);
    }

    private final ActorSignal signal;

    private Signal(ActorSignal signal) {
        this.signal = signal;
    }

    /** Fires with no payload. */
    public boolean fire() {
        return signal.fire();
    }

    /**
     * Fires: the owner will run the callback with a copy of {@code payload}. Any thread.
     *
     * @return true if the firing was queued; false if the signal is detached (a one-shot that already
     *         fired, cancelled, or its owner halted)
     */
    public boolean fire(byte[] payload) {
        return signal.fire(payload);
    }

    /**
     * Detaches the signal so it can fire no more, and runs its release hook. Any thread.
     *
     * @return true if this call detached it
     */
    public boolean cancel() {
        return signal.cancel();
    }

    /** True until it is detached. */
    public boolean isAttached() {
        return signal.isAttached();
    }

    public SignalMode mode() {
        return signal.mode();
    }
}
