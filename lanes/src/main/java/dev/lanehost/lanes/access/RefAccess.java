package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.seam.Addressee;

/** {@link ActorRef}'s parts, for the actor's cell. */
public interface RefAccess {
    ActorRef newRef(Addressee cell);

    Addressee addressee(ActorRef ref);
}
