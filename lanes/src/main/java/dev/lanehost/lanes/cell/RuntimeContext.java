package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.RuntimeObserver;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.budget.ThreadCpu;
import dev.lanehost.lanes.observe.HaltCounts;
import dev.lanehost.lanes.observe.RuntimeEvents;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.time.ActorTimer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The runtime as its actors and lanes see it: the few things a cell, a turn or a lane asks of the runtime
 * it lives in. {@link LiveRuntime} implements it over {@link dev.lanehost.lanes.ActorRuntime}'s parts, so these calls stay off its public API and
 * the parts below depend on this seam, not on the runtime class above them.
 *
 * <p>An abstract class rather than an interface so that the closed flag, which every drive reads twice, is
 * a field of this object: a lane reads it in one load, as it did when it held the runtime itself.
 */
public abstract class RuntimeContext {
    /** Who keeps the turn budgets' clock: never the thread running the turn, except in SINGLE_THREAD. */
    public enum BudgetClock {
        /** HOSTED: the timer thread's budget watch raises a running turn's flags. */
        WATCH,
        /** SIMULATED: the virtual clock, moved by each explicit poll site, raises them. */
        VIRTUAL,
        /** SINGLE_THREAD: nobody can while the turn runs; the runner settles the budget after it returns. */
        AFTER_TURN
    }

    /** Set once by the close; from then on drives, binds and releases answer CLOSED. */
    private volatile boolean closed;
    /** Set by a budget watch that sleeps long because no turn ran for a while; a turn's start wakes it. */
    public volatile boolean budgetWatchAsleep;
    public final BudgetClock budgetClock;
    /** How the HOSTED budget watch reads a runner's CPU time; tests put a clock of their own here. */
    public volatile ThreadCpu threadCpu = ThreadCpu.JVM;
    /** The turn budget of an actor spawned without one of its own. */
    public final BudgetLimits defaultBudget;
    /** Letters an actor's mailbox holds before it refuses messages and tasks, unless the actor has its own. */
    public final long mailboxCapacity;
    /** Letters a lane's actors hold together before they refuse messages and tasks. */
    public final long laneCapacity;
    /** The runtime's idle timeout for actors that set none; 0 = off. */
    public final long idleNanos;
    /** Turns of one actor a lane's drive runs per trip through the lane's queue (1 in SIMULATED: seeded picks decide). */
    public final int laneTurnsPerRun;
    /** Messages and tasks refused for a full mailbox or lane, runtime-wide. */
    public final LongAdder refusedLetters = new LongAdder();
    /** Messages accepted and then dropped unhandled by their actor's halt, runtime-wide. */
    public final LongAdder droppedMessages = new LongAdder();
    /** Actors torn down, by the kind of their exit reason. */
    public final HaltCounts halts = new HaltCounts();
    /** Supervisors' remedies carried out: restarts (a successor spawned) and hydrations, runtime-wide. */
    public final LongAdder restarts = new LongAdder();
    public final LongAdder hydrations = new LongAdder();

    protected RuntimeContext(BudgetClock budgetClock, BudgetLimits defaultBudget, long mailboxCapacity, long laneCapacity, long idleNanos,
                   int laneTurnsPerRun) {
        this.idleNanos = idleNanos;
        this.laneTurnsPerRun = laneTurnsPerRun;
        this.budgetClock = budgetClock;
        this.defaultBudget = defaultBudget;
        this.mailboxCapacity = mailboxCapacity;
        this.laneCapacity = laneCapacity;
        RuntimeEvents.listen(); // the event types get registered off the turn paths, if a recording ever starts
    }

    public final boolean isClosed() {
        return closed;
    }

    /** The close's first step. */
    public final void markClosed() {
        closed = true;
    }

    /** The runtime clock: {@link System#nanoTime()}, or the virtual clock in SIMULATED. */
    public abstract long nanoTime();

    public abstract RuntimeObserver observer();

    /** Live signals, timers, parks and arenas: whoever opens or ends one reports it here. */
    public abstract LiveCounters counters();

    /** Arenas of halted actors a native call still held at their teardown, to close later. */
    public abstract HeldArenas heldArenas();

    /** A turn's spawn: {@link dev.lanehost.lanes.ActorRuntime#spawn(String, Placement, SpawnOptions, Supplier)}. */
    public abstract ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory);

    /** A supervisor's restart: spawns the successor of a halted actor, with its name, placement, options and factory. */
    public abstract ActorRef respawn(ActorCell predecessor);

    /** A turn started while the budget watch slept: wake it so it watches this turn. */
    public abstract void wakeBudgetWatch();

    /** SIMULATED: an explicit poll site spends its virtual time. */
    public abstract void spendPollTime();

    /**
     * A turn's {@link dev.lanehost.lanes.ActorContext#delay} ({@code periodNanos} 0) or {@link dev.lanehost.lanes.ActorContext#every} (the period): a timer
     * due {@code delay} from now, held by its owner and armed.
     */
    public abstract ActorTimer arm(ActorCell owner, Duration delay, long periodNanos, TurnCallback callback);

    /** The runner of a new cell's turns, from its behaviour's factory, under its turn budget. */
    public abstract Turns turnsOf(ActorCell cell, Supplier<? extends Behavior> factory, BudgetLimits budget);

    /** The actor's halt was claimed: lookups no longer find it. */
    public abstract void halted(ActorCell cell);

    /** The actor's teardown has run on its placement: it is gone. */
    public abstract void tornDown(ActorCell cell);

    /** True if {@code thread} runs the cell's turns now (its lane's bound thread, or the normal queue's runner). */
    public abstract boolean isRunnerOf(ActorCell cell, Thread thread);

    /** How long a lane's work may wait undriven before the lane is reported stalled. */
    public abstract long laneStallThresholdNanos();

    /** Stall episodes seen on any lane; each lane counts its own here. */
    public abstract AtomicLong laneStallCounter();
}
