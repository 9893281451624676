package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ReusableTask;
import dev.lanehost.lanes.mailbox.Letter;

/** {@link ReusableTask}'s letter, for the offer that queues it. */
public interface TaskAccess {
    Letter.Reusable letter(ReusableTask task);
}
