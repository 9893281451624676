package dev.lanehost.lanes;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a behaviour may do during its turn. Every method must be called from within a turn of the actor
 * it belongs to; a call from anywhere else throws {@link IllegalStateException}.
 */
public interface ActorContext {
    /** This actor. */
    ActorRef self();

    /** The runtime's clock, in nanoseconds (virtual in the simulated profile). */
    long nanoTime();

    /** Spawns a normal actor; see {@link ActorRuntime#spawn}. */
    ActorRef spawn(String name, Supplier<? extends Behavior> factory);

    /** Spawns an actor on a lane; see {@link ActorRuntime#spawnOnLane}. */
    ActorRef spawnOnLane(String lane, String name, Supplier<? extends Behavior> factory);

    /** Runs {@code callback} as a turn of this actor, on its placement, once {@code delay} has passed. */
    Timer delay(Duration delay, TurnCallback callback);

    /**
     * Creates a signal owned by this actor that any thread may fire.
     *
     * @param releaseHook runs exactly once when the signal detaches (may be null)
     */
    Signal signal(SignalMode mode, SignalCallback callback, Runnable releaseHook);

    /**
     * Registers a pending callback that some producer completes once.
     *
     * @param releaseHook runs exactly once when the park ends (may be null)
     */
    <T> Park<T> park(ParkCallback<T> callback, Runnable releaseHook);

    /** When {@code actor} halts, this actor receives a {@link Down}; at once if it already has. */
    void monitor(ActorRef actor);

    /**
     * Links this actor and {@code actor}: when either halts abnormally, the other halts with
     * {@link ExitReason.Linked}. Linking to an actor that already halted abnormally halts this one.
     */
    void link(ActorRef actor);

    /** Halts this actor normally once the current turn ends. */
    void stop();

    /** Native memory owned by this actor, freed when it halts. Created on first use. */
    Arena arena();
}
