package dev.lanehost.lanes;

import java.util.List;
import java.util.Objects;

/**
 * The K replicas of a placement entry ({@link ActorRuntime#spawnReplicas}), each on its own thread, and the
 * keyed sharding over them: a key always reaches the same replica, {@code floorMod(spread(key.hashCode()), K)},
 * so a replica owns its keys' state with no sharing.
 */
public final class Replicas {
    private final List<ActorRef> replicas;

    Replicas(List<ActorRef> replicas) {
        this.replicas = List.copyOf(replicas);
    }

    /** K. */
    public int size() {
        return replicas.size();
    }

    /** Replica {@code index}, 0 to K − 1. */
    public ActorRef replica(int index) {
        return replicas.get(index);
    }

    /** Every replica, in index order. */
    public List<ActorRef> all() {
        return replicas;
    }

    /** The replica that owns {@code key}: the same one for equal keys, for the life of the runtime. */
    public int indexFor(Object key) {
        int hash = Objects.requireNonNull(key, "key").hashCode();
        hash ^= hash >>> 16; // spread the high bits, as HashMap does: small K then sees them too
        return Math.floorMod(hash * 0x9E3779B9, replicas.size());
    }

    /** {@link #replica(int) replica}{@code (}{@link #indexFor indexFor(key)}{@code )}. */
    public ActorRef forKey(Object key) {
        return replicas.get(indexFor(key));
    }

    /**
     * Sends {@code message} to the replica that owns {@code key}.
     *
     * @return as {@link ActorRef#tell}
     */
    public boolean tell(Object key, Object message) {
        return forKey(key).tell(message);
    }
}
