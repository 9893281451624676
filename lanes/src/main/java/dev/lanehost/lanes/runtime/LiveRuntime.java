package dev.lanehost.lanes.runtime;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.RuntimeObserver;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Spawner;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.HeldArenas;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.cell.Turns;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneClose;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.scheduler.Scheduler;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.time.ActorTimer;
import dev.lanehost.lanes.time.TimerQueue;
import dev.lanehost.lanes.turn.TurnContext;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The runtime as its cells and lanes see it: {@link dev.lanehost.lanes.ActorRuntime}'s parts behind the {@link RuntimeContext} seam,
 * package-private so none of it is public API.
 */
public final class LiveRuntime extends RuntimeContext implements LaneClose.Actors {

    /** The runtime's parts made before its context; the scheduler and spawning come after it ({@link #attach}). */
    public record Parts(TimerQueue timers, LaneRegistry lanes, ActorRegistry actors, LiveCounters counters,
            HeldArenas heldArenas, LongAdder blockingActors, RuntimeObserver observer, RuntimeClose shutdown,
            long laneStallThresholdNanos) {
    }

    /** The runtime, as the spawner of actors its cells and turns start. */
    private final Spawner runtime;
    private final Parts parts;
    private Scheduler scheduler;
    private Spawning spawning;

    public LiveRuntime(Spawner runtime, Parts parts, BudgetClock budgetClock, BudgetLimits defaultBudget, long mailboxCapacity,
                long laneCapacity, long idleNanos, int laneTurnsPerRun) {
        super(budgetClock, defaultBudget, mailboxCapacity, laneCapacity, idleNanos, laneTurnsPerRun);
        this.runtime = runtime;
        this.parts = parts;
    }

    /** The parts made with this context, once: before the runtime is used. */
    public void attach(Scheduler scheduler, Spawning spawning) {
        this.scheduler = scheduler;
        this.spawning = spawning;
    }

    @Override
    public long nanoTime() {
        return scheduler.nanoTime();
    }

    @Override
    public RuntimeObserver observer() {
        return parts.observer();
    }

    @Override
    public LiveCounters counters() {
        return parts.counters();
    }

    @Override
    public HeldArenas heldArenas() {
        return parts.heldArenas();
    }

    @Override
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        return runtime.spawn(name, placement, options, factory);
    }

    @Override
    public ActorRef respawn(ActorCell predecessor) {
        return spawning.respawn(predecessor);
    }

    @Override
    public void wakeBudgetWatch() {
        if (budgetWatchAsleep) {
            budgetWatchAsleep = false;
            scheduler.wakeBudgetWatch();
        }
    }

    @Override
    public void spendPollTime() {
        scheduler.spendPollTime();
    }

    @Override
    public ActorTimer arm(ActorCell owner, Duration delay, long periodNanos, TurnCallback callback) {
        ActorTimer timer = parts.timers().newTimer(owner, nanoTime(), delay, periodNanos, callback);
        owner.resources.add(timer);
        parts.counters().opened(LiveCounters.Kind.TIMERS);
        parts.timers().add(timer);
        return timer;
    }

    @Override
    public void halted(ActorCell cell) {
        parts.actors().halted(cell);
    }

    @Override
    public void tornDown(ActorCell cell) {
        parts.actors().tornDown(cell);
        if (cell.blocking) {
            parts.blockingActors().decrement();
        }
        if (cell.lane != null) {
            cell.lane.actorTornDown();
        }
    }

    @Override
    public boolean isRunnerOf(ActorCell cell, Thread thread) {
        if (cell.placement instanceof Placement.Lane lane) {
            Lane handle = parts.lanes().get(lane.name());
            return handle != null && handle.boundThread() == thread;
        }
        if (cell.placement instanceof Placement.Placed placed) {
            return scheduler.runsPlaced(placed.entry(), placed.replica(), thread);
        }
        if (cell.placement == Placement.BLOCKING) {
            return scheduler.runsBlocking(thread);
        }
        if (cell.placement instanceof Placement.Pinned pinned) {
            return scheduler.runsPinned(pinned.worker(), thread);
        }
        return scheduler.runsNormalQueue(thread);
    }

    @Override
    public long laneStallThresholdNanos() {
        return parts.laneStallThresholdNanos();
    }

    @Override
    public AtomicLong laneStallCounter() {
        return parts.lanes().stallReports();
    }

    @Override
    public Turns turnsOf(ActorCell cell, Supplier<? extends Behavior> factory, BudgetLimits budget) {
        return new TurnContext(cell, factory, budget);
    }

    @Override
    public void haltActorsOf(Lane lane) {
        parts.shutdown().haltActorsOf(lane);
    }

    @Override
    public void tearDownOnClosingThread(Lane lane) {
        parts.shutdown().tearDownOnClosingThread(lane);
    }
}
