package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalCallback;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.lanes.seam.ResourceOwner;

/** {@link Signal}'s parts, for the turn that makes one, the owner's resources and its letter. */
public interface SignalAccess {
    Signal newSignal(ResourceOwner owner, SignalMode mode, SignalCallback callback, Runnable releaseHook);

    void cancelForHalt(Signal signal);

    int incarnation(Signal signal);

    void run(Signal signal, ActorContext context, byte[] payload) throws Exception;
}
