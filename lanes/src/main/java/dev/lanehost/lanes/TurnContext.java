package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.LiveCounters;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * One actor's turns: runs a letter as a turn against its behaviour, and is the {@link ActorContext} that
 * behaviour sees, usable only on the thread running the turn. Every context call is a poll site of the turn
 * budget, which its {@link TurnClock} keeps.
 *
 * <p>Only the holder of the owner's turn lock calls {@link #run} and {@link #stopped}; the hand-off of the
 * turn lock orders one turn's plain fields before the next's. Observers read the turn count with acquire; the
 * running turn writes it with release, so the hot path has no fence.
 */
final class TurnContext implements ActorContext {
    private static final VarHandle TURNS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TURNS = lookup.findVarHandle(TurnContext.class, "turns", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ActorCell cell;
    private Supplier<? extends Behavior> factory;
    private Behavior behavior;
    private volatile boolean started;
    /** The thread running the current turn, so context calls from elsewhere are refused. */
    private Thread turnThread;
    /** Turns completed. */
    @SuppressWarnings("unused")
    private long turns;
    private static final RuntimeObserver UNOBSERVED = new RuntimeObserver() { };

    /** The turn budget's side of each turn. */
    final TurnClock clock;
    /** Set by a hydration until the fresh state's start has run: that start is the actor's next turn. */
    private boolean hydrating;
    /** The actor's idle timeout. */
    private final IdleReaper idle;

    TurnContext(ActorCell cell, Supplier<? extends Behavior> factory, BudgetLimits limits) {
        this.cell = cell;
        this.factory = factory;
        this.clock = new TurnClock(cell, limits);
        this.idle = new IdleReaper(cell);
    }

    /**
     * Runs one letter as one turn. A failure halts the actor and is logged, once per actor.
     *
     * @return the band the actor waits in for its next turn: {@link RunQueue#SLOW_BAND} after a turn that was
     *         asked to yield, else {@link RunQueue#READY_BAND}
     */
    int run(Letter letter) {
        // Kept small, with the dispatch and the fault path in methods of their own, so the JIT inlines this whole
        // turn into the runner's loop: every byte here is on the path of every turn.
        turnThread = Thread.currentThread();
        long started = clock.begin(letter instanceof Letter.Start);
        idle.turnStarted(letter, started);
        try {
            dispatch(letter);
        } catch (Throwable failure) {
            failed(failure); // while a fresh start is still marked hydrating, so its fault retires the actor
        } finally {
            turnThread = null;
        }
        if (hydrating && letter instanceof Letter.Start) {
            hydrating = false; // the fresh state has started, or its start faulted and retired the actor
        }
        int band = clock.settle(started);
        TURNS.setRelease(this, (long) TURNS.get(this) + 1);
        return band;
    }

    private void dispatch(Letter letter) throws Exception {
        switch (letter) {
            case Letter.Message sent -> behavior.receive(this, sent.message);
            case Letter.Task submitted -> submitted.task.run(this);
            case Letter.SignalFired fired -> {
                if (fired.signal.incarnation == cell.incarnation()) {
                    fired.signal.run(this, fired.payload);
                } // else delivered to a life a hydration ended: dropped
            }
            case Letter.TimerDue due -> {
                if (due.timer.incarnation == cell.incarnation()) {
                    due.timer.run(this);
                }
            }
            case Letter.ParkCompleted completed -> {
                if (completed.park.incarnation == cell.incarnation()) {
                    completed.park.consume(this);
                } else {
                    completed.park.releaseUnconsumed();
                }
            }
            case Letter.DownNotice notice -> behavior.receive(this, notice.down);
            case Letter.Exit exit -> cell.halt(new ExitReason.Linked(exit.peer, exit.reason));
            case Letter.Start start -> start();
        }
    }

    /** The turn threw: a fault for the supervisor, unless the budget disrupted it (settled as a budget fault). */
    private void failed(Throwable failure) {
        if (!clock.disrupted()) {
            // A turn runs at most once after its actor halts, so this logs once per actor (once per life).
            cell.faulted(new ExitReason.Failed(failure), () -> RuntimeLog.turnFailed(cell.describe(), failure));
        }
    }

    private void start() throws Exception {
        Supplier<? extends Behavior> make = factory;
        factory = null;
        Behavior made = make.get();
        if (made == null) {
            throw new NullPointerException("the behaviour factory of actor " + cell.name + " returned null");
        }
        behavior = made;
        started = true;
        behavior.started(this);
        idle.started();
    }

    /** Teardown, first step: {@code stopped}, if the actor ever started; a failure is logged and ignored. */
    void stopped(ExitReason reason) {
        if (behavior == null) {
            return;
        }
        turnThread = Thread.currentThread();
        clock.beginTeardown();
        try {
            behavior.stopped(this, reason);
        } catch (Throwable e) {
            RuntimeLog.hookFailed(cell.describe(), "stopped", e);
        } finally {
            turnThread = null;
        }
    }

    /**
     * A supervisor chose {@link Remedy#HYDRATE}: the faulted behaviour's {@code stopped} runs, its resources are
     * released, and the next turn starts a fresh behaviour from the factory. Under the turn lock, in the faulted turn.
     */
    void hydrate(ExitReason fault) {
        stopped(fault);
        cell.resources.release(UNOBSERVED, cell.ref); // not a halt: no halt steps to report
        idle.forgetLife();
        behavior = null;
        started = false;
        factory = cell.factory;
        hydrating = true;
    }

    /** True from a hydration until the fresh state's start has run. Runner only. */
    boolean isHydrating() {
        return hydrating;
    }

    /** Teardown, once every resource is released: the behaviour is unreachable from here on. */
    void forgetBehavior() {
        behavior = null;
    }

    boolean isStarted() {
        return started;
    }

    /** Turns completed. Any thread. */
    long turns() {
        return (long) TURNS.getAcquire(this);
    }

    /** The runtime clock when the running turn began, or 0 between turns. Any thread. */
    long turnStartedNanos() {
        return clock.startedNanos();
    }

    // ---------------------------------------------------------------- ActorContext (own turn only)

    @Override
    public ActorRef self() {
        checkInTurn();
        return cell.ref;
    }

    @Override
    public long nanoTime() {
        checkInTurn();
        return cell.runtime.nanoTime();
    }

    @Override
    public ActorRef spawn(String name, SpawnOptions options, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return cell.runtime.spawn(name, options, factory);
    }

    @Override
    public ActorRef spawnOnLane(String lane, String name, SpawnOptions options, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return cell.runtime.spawnOnLane(lane, name, options, factory);
    }

    @Override
    public Timer delay(Duration delay, TurnCallback callback) {
        checkInTurn();
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(callback, "callback");
        return cell.runtime.arm(cell, delay, 0, callback);
    }

    @Override
    public Timer every(Duration period, TurnCallback callback) {
        checkInTurn();
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(callback, "callback");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a repeating timer needs a period > 0, got " + period);
        }
        long periodNanos;
        try {
            periodNanos = period.toNanos();
        } catch (ArithmeticException tooLong) {
            throw new IllegalArgumentException("a repeating timer's period must fit in a long of nanoseconds (about 292 years), got " + period);
        }
        return cell.runtime.arm(cell, period, periodNanos, callback);
    }

    @Override
    public Signal signal(SignalMode mode, SignalCallback callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(callback, "callback");
        Signal signal = new Signal(cell, mode, callback, releaseHook);
        cell.resources.add(signal);
        cell.runtime.counters().opened(LiveCounters.Kind.SIGNALS);
        return signal;
    }

    @Override
    public <T> Park<T> park(ParkCallback<T> callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(callback, "callback");
        Park<T> park = new Park<>(cell, callback, releaseHook);
        cell.resources.add(park);
        cell.runtime.counters().opened(LiveCounters.Kind.PARKS);
        return park;
    }

    @Override
    public void monitor(ActorRef actor) {
        checkInTurn();
        ActorCell target = (ActorCell) Objects.requireNonNull(actor, "actor").cell;
        if (!target.watchers.addMonitor(cell)) {
            cell.deliver(new Letter.DownNotice(new Down(actor, target.exitReason)));
        }
    }

    @Override
    public void link(ActorRef actor) {
        checkInTurn();
        ActorCell peer = (ActorCell) Objects.requireNonNull(actor, "actor").cell;
        if (peer == cell) {
            return;
        }
        if (!peer.watchers.addLink(cell)) {
            if (peer.exitReason.isAbnormal()) {
                cell.halt(new ExitReason.Linked(actor, peer.exitReason));
            }
            return;
        }
        cell.watchers.linkTo(peer);
    }

    @Override
    public void stop() {
        checkInTurn();
        cell.halt(ExitReason.NORMAL);
    }

    @Override
    public Arena arena() {
        checkInTurn();
        return cell.resources.arena();
    }

    @Override
    public void unneeded(Duration idleTimeout, TurnCallback lastTurn) {
        checkInTurn();
        Objects.requireNonNull(idleTimeout, "idle timeout");
        if (!idleTimeout.equals(NEVER) && (idleTimeout.isNegative() || idleTimeout.isZero())) {
            throw new IllegalArgumentException("an idle timeout must be positive, or ActorContext.NEVER; got " + idleTimeout);
        }
        if (!idleTimeout.equals(NEVER) && idleTimeout.compareTo(Duration.ofDays(365 * 100)) > 0) {
            throw new IllegalArgumentException("an idle timeout over a hundred years is NEVER; got " + idleTimeout);
        }
        idle.unneeded(idleTimeout, lastTurn);
    }

    @Override
    public boolean shouldYield() {
        checkTurnThread();
        return (explicitPoll() & BudgetLimits.YIELD) != 0;
    }

    @Override
    public void checkpoint() {
        checkTurnThread();
        explicitPoll();
    }

    /**
     * Blocking actors: the next message, waited for on this thread. Announce as the receiver, then look, then
     * park: a delivery offers, then reads the receiver and unparks it, so one side sees the other.
     */
    @Override
    public Object receive(Duration timeout) {
        checkInTurn();
        Objects.requireNonNull(timeout, "timeout");
        if (!cell.blocking) {
            throw new IllegalStateException("receive(timeout) blocks its thread, so only an actor spawned with spawnBlocked "
                    + "may call it; " + cell.describe() + " gets its messages in receive(context, message)");
        }
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        while (true) {
            Letter next = cell.mailbox.peek();
            if (next instanceof Letter.Message) {
                return ((Letter.Message) cell.mailbox.take()).message;
            }
            if (next != null || cell.exitReason != null) {
                return null; // another kind of letter is next: it runs as this actor's next turn
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            cell.receiver = Thread.currentThread();
            try {
                if (cell.mailbox.peek() == null && cell.exitReason == null) {
                    LockSupport.parkNanos(this, left);
                }
            } finally {
                cell.receiver = null;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** SIMULATED spends an explicit poll site's virtual time here (and its clock raises flags), then every profile polls. */
    private long explicitPoll() {
        if (cell.runtime.budgetClock == RuntimeContext.BudgetClock.VIRTUAL) {
            cell.runtime.spendPollTime();
            clock.raise(cell.runtime.nanoTime());
        }
        return clock.poll();
    }

    /** Every context call: the caller must be this actor's turn, and a disrupted turn ends here. */
    private void checkInTurn() {
        checkTurnThread();
        clock.poll();
    }

    private void checkTurnThread() {
        if (turnThread != Thread.currentThread()) {
            throw outsideTurn(); // built out of line, so every context call stays small enough to inline
        }
    }

    private IllegalStateException outsideTurn() {
        return new IllegalStateException("the context of actor " + cell.id + " (" + cell.name
                + ") was used outside its own turn, on " + Thread.currentThread().getName());
    }
}
