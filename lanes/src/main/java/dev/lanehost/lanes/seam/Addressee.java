package dev.lanehost.lanes.seam;

import dev.lanehost.lanes.Delivery;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.TurnTask;

/**
 * What an {@code ActorRef} addresses, and all it knows of it: the handle is API, the actor behind it is
 * not, so the handle depends on this seam rather than on the actor's cell. {@code ActorCell} is the one
 * implementation.
 */
public interface Addressee {
    long id();

    String name();

    Placement placement();

    /** Admission, then a message letter. Any thread. */
    Delivery offer(Object message);

    /** Admission, then a task letter. Any thread. */
    Delivery offerTask(TurnTask task);

    /** True if {@code thread} runs this actor's turns now. */
    boolean isRunBy(Thread thread);

    /** Claims the halt with {@code reason}. @return true if this call claimed it */
    boolean halt(ExitReason reason);

    /** Why the actor halted, or null while it runs. */
    ExitReason exitReason();

    /** Exempts the actor from its turn budget, or ends the exemption. */
    void setFrozen(boolean frozen);

    boolean isFrozen();
}
