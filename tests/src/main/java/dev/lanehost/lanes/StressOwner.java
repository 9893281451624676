package dev.lanehost.lanes;

import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.resource.ActorSignal;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import dev.lanehost.lanes.time.ActorTimer;

/**
 * A resource owner for the stress tests that take timers, signals or parks without an actor: it accepts every
 * letter, forgets nothing it must remember, and counts nothing. Tests override what they observe.
 */
class StressOwner implements ResourceOwner<ActorTimer, ActorSignal, ActorPark<?>> {
    @Override
    public boolean timerDue(ActorTimer timer) {
        return true;
    }

    @Override
    public boolean signalFired(ActorSignal signal, byte[] payload) {
        return true;
    }

    @Override
    public boolean parkCompleted(ActorPark<?> park) {
        return true;
    }

    @Override
    public void forgetTimer(ActorTimer timer) {
    }

    @Override
    public void forgetSignal(ActorSignal signal) {
    }

    @Override
    public void forgetPark(ActorPark<?> park) {
    }

    @Override
    public void ended(LiveCounters.Kind kind) {
    }

    @Override
    public int incarnation() {
        return 0;
    }

    @Override
    public String describe() {
        return "stress owner";
    }
}
