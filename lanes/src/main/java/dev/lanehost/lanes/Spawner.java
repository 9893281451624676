package dev.lanehost.lanes;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Spawning, the same from outside and from a turn: {@link ActorRuntime} and {@link ActorContext} are both
 * spawners. One general method takes a {@link Placement}; the others are its shortcuts. Whatever the
 * placement, the factory and {@link Behavior#started} run as the actor's first turn, on that placement, never
 * on the spawning thread; messages, monitors and links reach the actor through its {@link ActorRef} alike.
 */
public interface Spawner {
    /**
     * Spawns an actor at {@code placement}, with what differs from the runtime's defaults in {@code options}.
     *
     * @throws IllegalArgumentException naming what is missing: a lane not registered, a worker out of range, a
     *                                  placement entry that starts no thread
     * @throws IllegalStateException    if the runtime is closed, or {@link Placement#BLOCKING} in a profile whose
     *                                  turns run on the host's {@code drain()}
     */
    ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory);

    /** A normal actor: HOSTED runs it on any worker (idle ones steal it), the others in {@code drain()}. */
    default ActorRef spawn(String name, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.NORMAL, SpawnOptions.DEFAULT, factory);
    }

    /** As {@link #spawn(String, Supplier)}, with its own options (e.g. a turn budget). */
    default ActorRef spawn(String name, SpawnOptions options, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.NORMAL, options, factory);
    }

    /**
     * An actor on a lane for life: its start runs in the lane's next drive, and every later wakeup queues it
     * on the same lane.
     *
     * @throws IllegalArgumentException naming the lane if no lane of that name is registered
     */
    default ActorRef spawnOnLane(String lane, String name, Supplier<? extends Behavior> factory) {
        return spawnOnLane(lane, name, SpawnOptions.DEFAULT, factory);
    }

    /**
     * As {@link #spawnOnLane(String, String, Supplier)}, with its own options: a lane actor's turn budget is what
     * bounds a misbehaving actor's hold on its host's callback.
     */
    default ActorRef spawnOnLane(String lane, String name, SpawnOptions options, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.lane(Objects.requireNonNull(lane, "lane name")), options, factory);
    }

    /**
     * An actor pinned for life to HOSTED worker {@code worker} (0 to {@link RuntimeMetrics#workerCount()} − 1): no
     * other worker ever runs it, so it may keep thread-affine state (a ring side, a confined arena). SINGLE_THREAD
     * and SIMULATED have one worker, 0, the draining thread.
     *
     * @throws IllegalArgumentException naming the range if there is no such worker
     */
    default ActorRef spawnPinned(int worker, String name, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.pinned(worker), SpawnOptions.DEFAULT, factory);
    }

    /**
     * An actor on HOSTED's blocking threads: its turns may block (I/O, a lock, a blocking
     * {@link ActorContext#receive}) without holding up a worker, and turn budgets do not apply to it. Each
     * runnable blocking actor takes a thread of its own, started on demand up to
     * {@link RuntimeBuilder#blockingThreads}; past that bound, runnable blocking actors wait in order for a free
     * thread.
     *
     * @throws IllegalStateException in SINGLE_THREAD and SIMULATED, whose turns run on the host's drain
     */
    default ActorRef spawnBlocked(String name, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.BLOCKING, SpawnOptions.DEFAULT, factory);
    }

    /**
     * An actor on the thread of a placement configuration's entry ({@link RuntimeBuilder#placement}): a pinned
     * entry's own thread, or its cooperative pool's, for life; a replicated entry's replica 0 (all of them:
     * {@link ActorRuntime#spawnReplicas}).
     *
     * @throws IllegalArgumentException naming the entry if the placement starts no thread for it
     */
    default ActorRef spawnPlaced(String entry, String name, Supplier<? extends Behavior> factory) {
        return spawn(name, Placement.placed(Objects.requireNonNull(entry, "entry"), 0), SpawnOptions.DEFAULT, factory);
    }
}
