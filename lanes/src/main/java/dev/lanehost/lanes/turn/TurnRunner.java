package dev.lanehost.lanes.turn;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.RuntimeObserver;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.Turns;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.mailbox.Recipient;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * One actor's turns and its behaviour's life: runs a letter as a turn against the behaviour (the budget's clock
 * around it, failures to the supervisor), and the behaviour's start, stop and hydration. Its subclass
 * {@link TurnContext} is the {@link ActorContext} the behaviour sees; a superclass rather than a field, so a
 * context call reaches the turn's state in the same object.
 *
 * <p>Only the holder of the owner's turn lock calls {@link #run} and {@link #stopped}; the hand-off of the
 * turn lock orders one turn's plain fields before the next's. Observers read the turn count with acquire; the
 * running turn writes it with release, so the hot path has no fence.
 */
public abstract class TurnRunner implements Recipient, Turns {
    private static final VarHandle TURNS;
    private static final RuntimeObserver UNOBSERVED = new RuntimeObserver() { };

    static {
        try {
            TURNS = MethodHandles.lookup().findVarHandle(TurnRunner.class, "turns", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final ActorCell cell;
    /** The turn budget's side of each turn. */
    public final TurnClock clock;
    /** The actor's idle timeout. */
    final IdleReaper idle;
    private Supplier<? extends Behavior> factory;
    private Behavior behavior;
    private volatile boolean started;
    /** The thread running the current turn, so context calls from elsewhere are refused. */
    public Thread turnThread;
    /** Turns completed. */
    @SuppressWarnings("unused")
    private long turns;
    /** Set by a hydration until the fresh state's start has run: that start is the actor's next turn. */
    private boolean hydrating;
    /**
     * Set by a hydration, or before a restart's successor is published, until the fresh state's start has run: a
     * fault in that start retires the actor instead of going to the supervisor, so a broken factory cannot loop.
     */
    private boolean freshLife;

    TurnRunner(ActorCell cell, Supplier<? extends Behavior> factory, BudgetLimits limits) {
        this.cell = cell;
        this.factory = factory;
        this.clock = new TurnClock(cell, limits);
        this.idle = new IdleReaper(cell);
    }

    /**
     * Runs one letter as one turn. A failure halts the actor and is logged, once per actor.
     *
     * @return the band the actor waits in for its next turn: {@code RunQueue.SLOW_BAND} after a turn that was
     *         asked to yield, else {@code RunQueue.READY_BAND}
     */
    @Override
    public int run(Letter letter) {
        // Kept small, with the letter's body and the fault path in methods of their own, so the JIT inlines this whole
        // turn into the runner's loop: every byte here is on the path of every turn.
        turnThread = Thread.currentThread();
        boolean freshStart = freshLife; // before the turn: a start that faults into a hydration sets it for the next one
        clock.begin(letter.turnFlags);
        idle.turnStarted(letter);
        try {
            letter.deliver(this); // each kind delivers itself: no type switch to link or speculate on (Letter)
        } catch (Throwable failure) {
            failed(failure); // while a fresh start is still marked hydrating, so its fault retires the actor
        } finally {
            turnThread = null;
        }
        int band = clock.settle(); // a start's budget fault is settled here, still as the fresh state's
        if (freshStart && letter.turnFlags != 0) { // a start (the only letter with turn flags) of a fresh state
            hydrating = false; // the fresh state has started, or its start faulted and retired the actor
            freshLife = false;
        }
        TURNS.setRelease(this, (long) TURNS.get(this) + 1);
        return band;
    }

    /** A message (or a {@link dev.lanehost.lanes.Down} notice) for the behaviour. Called by the letter ({@link Letter#deliver}). */
    @Override
    public void behaviorReceives(Object message) throws Exception {
        behavior.receive(this, message);
    }

    /** A linked peer's exit. Called by {@link Letter.Exit}. */
    @Override
    public void haltActor(ExitReason reason) {
        cell.halt(reason);
    }

    @Override
    public int incarnation() {
        return cell.incarnation();
    }

    /** The turn threw: a fault for the supervisor, unless the budget disrupted it (settled as a budget fault). */
    private void failed(Throwable failure) {
        clock.threw();
        if (!clock.disrupted()) {
            // A turn runs at most once after its actor halts, so this logs once per actor (once per life).
            cell.faulted(new ExitReason.Failed(failure), outcome -> RuntimeLog.turnFailed(cell.describe(), outcome, failure));
        }
    }

    /** The actor's start: make the behaviour and run {@code started}. Called by {@link Letter.Start}. */
    @Override
    public void start() throws Exception {
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
    @Override
    public void stopped(ExitReason reason) {
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
     * A supervisor chose {@link dev.lanehost.lanes.Remedy#HYDRATE}: the faulted behaviour's {@code stopped} runs, its resources are
     * released, and the next turn starts a fresh behaviour from the factory. Under the turn lock, in the faulted turn.
     */
    @Override
    public void hydrate(ExitReason fault) {
        stopped(fault);
        cell.resources.release(UNOBSERVED, cell.ref); // not a halt: no halt steps to report
        idle.forgetLife();
        behavior = null;
        started = false;
        factory = cell.factory;
        hydrating = true;
        freshLife = true;
    }

    /** A restart's successor, before it is published: its start is a fresh state's. */
    @Override
    public void markSuccessor() {
        freshLife = true;
    }

    /** True from a hydration until the fresh state's start has run. Runner only. */
    @Override
    public boolean isHydrating() {
        return hydrating;
    }

    /** True from a hydration or a restart until the fresh state's start has run: a fault now retires. Runner only. */
    @Override
    public boolean inFreshLife() {
        return freshLife;
    }

    /** Teardown, once every resource is released: the behaviour is unreachable from here on. */
    @Override
    public void forgetBehavior() {
        behavior = null;
    }

    @Override
    public boolean isStarted() {
        return started;
    }

    /** Turns completed. Any thread. */
    @Override
    public Thread turnThread() {
        return turnThread;
    }

    /** The runner of {@code cell}'s turns, for the budget's side of them (its {@link #clock}). */
    public static TurnRunner of(ActorCell cell) {
        return (TurnRunner) cell.context;
    }

    @Override
    public long turns() {
        return (long) TURNS.getAcquire(this);
    }

    /** The runtime clock when the running turn began, {@link TurnClock#UNSEEN}, or 0 between turns. Any thread. */
    @Override
    public long turnStartedNanos() {
        return clock.startedNanos();
    }
}
