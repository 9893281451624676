package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.LiveCounters;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One actor's turns: runs a letter as a turn against its behaviour, and is the {@link ActorContext} that
 * behaviour sees, usable only on the thread running the turn. Per-turn bookkeeping (and, with turn
 * budgets, their poll sites) lives here.
 *
 * <p>Only the holder of the owner's turn lock calls {@link #run} and {@link #stopped}; the hand-off of the
 * turn lock orders one turn's plain fields before the next's. Observers read the turn count and the turn's
 * start with acquire; the running turn writes them with release, so the hot path has no fence.
 */
final class TurnContext implements ActorContext {
    private static final VarHandle TURNS;
    private static final VarHandle TURN_STARTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TURNS = lookup.findVarHandle(TurnContext.class, "turns", long.class);
            TURN_STARTED = lookup.findVarHandle(TurnContext.class, "turnStartedNanos", long.class);
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
    /** Runtime clock at the start of the current turn, 0 between turns. */
    @SuppressWarnings("unused")
    private long turnStartedNanos;

    TurnContext(ActorCell cell, Supplier<? extends Behavior> factory) {
        this.cell = cell;
        this.factory = factory;
    }

    /** Runs one letter as one turn. A failure halts the actor and is logged, once per actor. */
    void run(Letter letter) {
        turnThread = Thread.currentThread();
        TURN_STARTED.setRelease(this, cell.runtime.nanoTime());
        try {
            switch (letter) {
                case Letter.Message sent -> behavior.receive(this, sent.message);
                case Letter.Task submitted -> submitted.task.run(this);
                case Letter.SignalFired fired -> fired.signal.run(this, fired.payload);
                case Letter.TimerDue due -> due.timer.run(this);
                case Letter.ParkCompleted completed -> completed.park.consume(this);
                case Letter.DownNotice notice -> behavior.receive(this, notice.down);
                case Letter.Exit exit -> cell.halt(new ExitReason.Linked(exit.peer, exit.reason));
                case Letter.Start start -> start();
            }
        } catch (Throwable failure) {
            cell.halt(new ExitReason.Failed(failure));
            RuntimeLog.turnFailed(cell.describe(), failure); // a turn runs at most once after its actor halts, so once per actor
        } finally {
            turnThread = null;
            TURN_STARTED.setRelease(this, 0L);
            TURNS.setRelease(this, (long) TURNS.get(this) + 1);
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
    }

    /** Teardown, first step: {@code stopped}, if the actor ever started; a failure is logged and ignored. */
    void stopped(ExitReason reason) {
        if (behavior == null) {
            return;
        }
        turnThread = Thread.currentThread();
        try {
            behavior.stopped(this, reason);
        } catch (Throwable e) {
            RuntimeLog.hookFailed(cell.describe(), "stopped", e);
        } finally {
            turnThread = null;
        }
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
        return (long) TURN_STARTED.getAcquire(this);
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
    public ActorRef spawn(String name, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return cell.runtime.spawn(name, factory);
    }

    @Override
    public ActorRef spawnOnLane(String lane, String name, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return cell.runtime.spawnOnLane(lane, name, factory);
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

    private void checkInTurn() {
        if (turnThread != Thread.currentThread()) {
            throw new IllegalStateException("the context of actor " + cell.id + " (" + cell.name
                    + ") was used outside its own turn, on " + Thread.currentThread().getName());
        }
    }
}
