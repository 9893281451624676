package dev.lanehost.lanes.resource;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.SignalCallback;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * An actor's signal as the runtime keeps it: its mode, callback and release hook, whether it is attached, and its
 * owner. Its public handle, {@link dev.lanehost.lanes.Signal}, documents it and hands every call here; a firing from
 * C reaches it through that handle.
 */
public final class ActorSignal implements Letter.Fired {
    private static final byte[] NO_PAYLOAD = new byte[0];
    private static final VarHandle ATTACHED;

    static {
        try {
            ATTACHED = MethodHandles.lookup().findVarHandle(ActorSignal.class, "attached", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ResourceOwner<?, ActorSignal, ?> owner;
    private final SignalMode mode;
    private final SignalCallback callback;
    private final Runnable releaseHook;
    @SuppressWarnings("unused")
    private volatile boolean attached = true;

    /** The owner's life that made this resource ({@link ResourceOwner#incarnation()}). */
    private final int incarnation;

    public ActorSignal(ResourceOwner<?, ActorSignal, ?> owner, SignalMode mode, SignalCallback callback, Runnable releaseHook) {
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
    public void cancelForHalt() {
        if (ATTACHED.compareAndSet(this, true, false)) {
            owner.ended(LiveCounters.Kind.SIGNALS);
            runReleaseHook();
        }
    }

    @Override
    public int incarnation() {
        return incarnation;
    }

    /** The owner's turn for one firing: the callback, with this firing's copy of the payload. */
    @Override
    public void run(ActorContext context, byte[] payload) throws Exception {
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
