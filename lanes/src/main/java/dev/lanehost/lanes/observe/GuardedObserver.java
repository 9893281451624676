package dev.lanehost.lanes.observe;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.HaltStep;
import dev.lanehost.lanes.RuntimeObserver;

/**
 * A user's {@link RuntimeObserver} behind a guard: whatever it throws is logged and swallowed, so an
 * observer can never break the halt it is watching.
 */
public final class GuardedObserver implements RuntimeObserver {
    private final RuntimeObserver delegate;

    public GuardedObserver(RuntimeObserver delegate) {
        this.delegate = delegate;
    }

    @Override
    public void haltStep(ActorRef actor, HaltStep step) {
        try {
            delegate.haltStep(actor, step);
        } catch (Throwable e) {
            RuntimeLog.log(System.Logger.Level.WARNING, "RuntimeObserver.haltStep threw", e);
        }
    }
}
