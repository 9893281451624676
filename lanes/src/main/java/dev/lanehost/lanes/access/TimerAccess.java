package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Timer;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.seam.ResourceOwner;
import dev.lanehost.lanes.time.TimerQueue;

/** {@link Timer}'s parts, for the timer queue, the owner's resources and its letter. */
public interface TimerAccess {
    Timer newTimer(ResourceOwner owner, TimerQueue queue, long deadline, long sequence, long periodNanos, TurnCallback callback);

    TimerQueue.Arrival arrival(Timer timer);

    long deadline(Timer timer);

    void fire(Timer timer);

    Letter.TimerDue letter(Timer timer);

    void cancelForHalt(Timer timer);

    int incarnation(Timer timer);

    void run(Timer timer, ActorContext context) throws Exception;

    boolean held(Timer timer);

    void held(Timer timer, boolean held);

    Timer previousHeld(Timer timer);

    void previousHeld(Timer timer, Timer previous);

    Timer nextHeld(Timer timer);

    void nextHeld(Timer timer, Timer next);
}
