package dev.lanehost.lanes;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a behaviour may do during its turn. Every method must be called from within a turn of the actor
 * it belongs to; a call from anywhere else throws {@link IllegalStateException}.
 *
 * <p>Every method is also a <em>poll site</em> of the turn budget ({@link TurnBudget}): once the turn has been
 * disrupted, each call throws {@link TurnDisrupted}. A loop that calls nothing here cannot be disrupted (Java
 * offers no safe way to stop a thread): a long loop should call {@link #checkpoint()} or {@link #shouldYield()}.
 * Spawning from a turn ({@link Spawner}) is a poll site too.
 */
public interface ActorContext extends Spawner {
    /** For {@link #unneeded}: never reap this actor for being idle (a permanent service). */
    Duration NEVER = java.time.temporal.ChronoUnit.FOREVER.getDuration();

    /** This actor. */
    ActorRef self();

    /** The runtime's clock, in nanoseconds (virtual in the simulated profile). */
    long nanoTime();


    /**
     * Runs {@code callback} as a turn of this actor, on its placement, once {@code delay} has passed. Each call makes
     * a new timer (a few dozen bytes); a periodic tick that must not allocate uses {@link #every}. A delay that
     * reaches past the end of the runtime's clock (about 292 years of nanoseconds, {@code ChronoUnit.FOREVER}
     * included) is due at the clock's end: the timer stays armed, and counted, until it is cancelled or its actor
     * halts.
     *
     * @throws IllegalArgumentException if {@code delay} is negative ({@link Duration#ZERO} runs it as soon as the
     *                                  timer thread and the placement get to it)
     */
    Timer delay(Duration delay, TurnCallback callback);

    /**
     * Runs {@code callback} as a turn of this actor, on its placement, every {@code period} from now, until the timer
     * is {@linkplain Timer#cancel() cancelled} or this actor halts (a stop, a failed turn, the runtime's close). One
     * timer and one letter for its whole life: after each of its turns it re-arms in place, so a steady tick
     * allocates nothing.
     *
     * <p>The schedule is fixed-rate: the n-th firing is due at {@code now + n × period} on the runtime's clock
     * (virtual in SIMULATED, so deterministic there). It never has two firings queued: the next deadline is armed
     * after the callback returns, and deadlines that have already passed by then are skipped, not run back to back.
     * A cancel, from any thread or from the callback itself, stops it; a firing already queued then runs nothing.
     *
     * <p>A period shorter than a turn (down to 1 ns) is allowed: the actor then ticks back to back, one firing per
     * turn, still behind its other letters.
     *
     * @throws IllegalArgumentException if {@code period} is not positive, or does not fit in a {@code long} of
     *                                  nanoseconds (about 292 years)
     */
    Timer every(Duration period, TurnCallback callback);

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

    /**
     * When {@code actor} halts, this actor receives a {@link Down}; at once if it already has. Not when the runtime's
     * close halts it ({@link ExitReason.Shutdown}): the close halts this actor too.
     */
    void monitor(ActorRef actor);

    /**
     * Links this actor and {@code actor}: when either halts abnormally, the other halts with
     * {@link ExitReason.Linked} (but for the close's {@link ExitReason.Shutdown}, which halts both anyway). Linking to
     * an actor that already halted abnormally halts this one.
     */
    void link(ActorRef actor);

    /** Halts this actor normally once the current turn ends. */
    void stop();

    /**
     * Native memory owned by this actor, freed when it halts. Created on first use; a shared arena, so its segments
     * may be handed to other threads and native calls. Do not close it yourself: the teardown does. If a native call
     * on another thread still holds one of its segments when the actor halts, the teardown goes on without it and
     * the arena is closed at a later try once that call has returned (HOSTED's timer thread, a later teardown, the
     * runtime's close; until then {@link ActorRuntime#resources()} counts it). One still held as the runtime closes
     * is left open, and logged.
     */
    Arena arena();

    /**
     * Sets this actor's own idle timeout: once its mailbox has stayed quiet for {@code idleTimeout} (no letter
     * handled and none waiting — an armed timer, a pending park, an attached signal or a gate call it may still get
     * are not liveness), the actor halts with {@link ExitReason#REAPED} and {@code lastTurn}, if not null, runs as
     * its final turn: the actor takes no letter from then on, so a send, its own too, answers
     * {@link Delivery#TERMINATED}. {@link #NEVER} marks a permanent service that the runtime's idle timeout never
     * reaps. The quiet is counted from this turn; a later call replaces the earlier one.
     *
     * @throws IllegalArgumentException if {@code idleTimeout} is not positive
     */
    void unneeded(Duration idleTimeout, TurnCallback lastTurn);

    /** {@link #unneeded(Duration, TurnCallback)} with no last turn; {@code unneeded(NEVER)} exempts the actor. */
    default void unneeded(Duration idleTimeout) {
        unneeded(idleTimeout, null);
    }

    /**
     * True once this turn has run past its fast budget: return soon (after sending yourself what is left to do,
     * if anything is), and every ready actor of this placement runs before this one's next turn. A poll site; in
     * SIMULATED it also takes one poll's worth of virtual time ({@link RuntimeBuilder#simulatedPollCost}).
     * Always false in SINGLE_THREAD, where the budget is settled after the turn (nothing watches it meanwhile).
     */
    boolean shouldYield();

    /**
     * A poll site and nothing else: throws {@link TurnDisrupted} if this turn has been disrupted. In SIMULATED it
     * takes one poll's worth of virtual time, so a long simulated turn is a loop of checkpoints.
     */
    void checkpoint();

    /**
     * Blocking actors only ({@link ActorRuntime#spawnBlocked}): waits on this thread up to {@code timeout} for
     * the next message and returns it, taking it from the mailbox as a turn would. Returns null when the time
     * is up, when the actor is halted or its runtime closes meanwhile, or when the next letter is not a message (a task, timer,
     * signal, park or down notice): that letter runs as the actor's next turn, once this one returns. So on null,
     * return from the turn rather than receive again at once: a halted actor, or one whose runtime is closing,
     * answers null every time, and a loop that retries would spin instead of letting the actor end.
     *
     * @throws IllegalStateException if the actor was not spawned with {@code spawnBlocked}
     */
    default Object receive(Duration timeout) {
        throw new IllegalStateException("receive(timeout) is for actors spawned with spawnBlocked");
    }
}
