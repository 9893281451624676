package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.SignalAccess;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

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
        Access.setSignals(new SignalAccess<Signal, ResourceOwner<?, Signal, ?>, SignalMode, SignalCallback, ActorContext>() {
            @Override
            public Signal newSignal(ResourceOwner<?, Signal, ?> owner, SignalMode mode, SignalCallback callback,
                    Runnable releaseHook) {
                return new Signal(owner, mode, callback, releaseHook);
            }

            @Override
            public void cancelForHalt(Signal signal) {
                signal.cancelForHalt();
            }

            @Override
            public int incarnation(Signal signal) {
                return signal.incarnation;
            }

            @Override
            public void run(Signal signal, ActorContext context, byte[] payload) throws Exception {
                signal.run(context, payload);
            }
        });
    }

    private static final byte[] NO_PAYLOAD = new byte[0];
    private static final VarHandle ATTACHED;

    static {
        try {
            ATTACHED = MethodHandles.lookup().findVarHandle(Signal.class, "attached", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ResourceOwner<?, Signal, ?> owner;
    private final SignalMode mode;
    private final SignalCallback callback;
    private final Runnable releaseHook;
    @SuppressWarnings("unused")
    private volatile boolean attached = true;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    final int incarnation;

    Signal(ResourceOwner<?, Signal, ?> owner, SignalMode mode, SignalCallback callback, Runnable releaseHook) {
        this.incarnation = owner.incarnation();
        this.owner = owner;
        this.mode = mode;
        this.callback = callback;
        this.releaseHook = releaseHook;
    }

    /** Fires with no payload. */
    public boolean fire() {
        return fire(NO_PAYLOAD);
    }

    /**
     * Fires: the owner will run the callback with a copy of {@code payload}. Any thread.
     *
     * @return true if the firing was queued; false if the signal is detached (a one-shot that already
     *         fired, cancelled, or its owner halted)
     */
    public boolean fire(byte[] payload) {
        Objects.requireNonNull(payload, "payload (use fire() for none)");
        if (mode == SignalMode.ONE_SHOT) {
            if (!detach()) {
                return false;
            }
            boolean queued = owner.signalFired(this, payload.clone());
            release();
            return queued;
        }
        if (!attached) {
            return false;
        }
        return owner.signalFired(this, payload.length == 0 ? NO_PAYLOAD : payload.clone());
    }

    /**
     * Detaches the signal so it can fire no more, and runs its release hook. Any thread.
     *
     * @return true if this call detached it
     */
    public boolean cancel() {
        if (!detach()) {
            return false;
        }
        release();
        return true;
    }

    /** True until it is detached. */
    public boolean isAttached() {
        return attached;
    }

    public SignalMode mode() {
        return mode;
    }

    /** Halt teardown: the owner already dropped its reference. */
    void cancelForHalt() {
        if (ATTACHED.compareAndSet(this, true, false)) {
            owner.ended(LiveCounters.Kind.SIGNALS);
            runReleaseHook();
        }
    }

    void run(ActorContext context, byte[] payload) throws Exception {
        callback.fired(context, payload);
    }

    private boolean detach() {
        if (!ATTACHED.compareAndSet(this, true, false)) {
            return false;
        }
        owner.forgetSignal(this);
        owner.ended(LiveCounters.Kind.SIGNALS);
        return true;
    }

    private void release() {
        runReleaseHook();
    }

    private void runReleaseHook() {
        if (releaseHook != null) {
            try {
                releaseHook.run();
            } catch (Throwable e) {
                RuntimeLog.hookFailed(owner.describe(), "signal release hook", e);
            }
        }
    }
}
