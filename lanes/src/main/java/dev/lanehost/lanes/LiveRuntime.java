package dev.lanehost.lanes;

import dev.lanehost.lanes.observe.LiveCounters;
import dev.lanehost.lanes.turn.BudgetLimits;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The runtime as its cells and lanes see it: {@link ActorRuntime}'s parts behind the {@link RuntimeContext} seam,
 * package-private so none of it is public API.
 */
final class LiveRuntime extends RuntimeContext {
    private final ActorRuntime runtime;

    LiveRuntime(ActorRuntime runtime, BudgetClock budgetClock, BudgetLimits defaultBudget, long mailboxCapacity,
                long laneCapacity, long idleNanos, int laneTurnsPerRun) {
        super(budgetClock, defaultBudget, mailboxCapacity, laneCapacity, idleNanos, laneTurnsPerRun);
        this.runtime = runtime;
    }

    @Override
    public long nanoTime() {
        return runtime.scheduler.nanoTime();
    }

    @Override
    public RuntimeObserver observer() {
        return runtime.observer;
    }

    @Override
    public LiveCounters counters() {
        return runtime.counters;
    }

    @Override
    HeldArenas heldArenas() {
        return runtime.heldArenas;
    }

    @Override
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        return runtime.spawn(name, placement, options, factory);
    }

    @Override
    ActorRef respawn(ActorCell predecessor) {
        return runtime.spawning.respawn(predecessor);
    }

    @Override
    void wakeBudgetWatch() {
        if (budgetWatchAsleep) {
            budgetWatchAsleep = false;
            runtime.scheduler.wakeBudgetWatch();
        }
    }

    @Override
    void spendPollTime() {
        runtime.scheduler.spendPollTime();
    }

    @Override
    public Timer arm(ActorCell owner, Duration delay, long periodNanos, TurnCallback callback) {
        Timer timer = runtime.timers.newTimer(owner, nanoTime(), delay, periodNanos, callback);
        owner.resources.add(timer);
        runtime.counters.opened(LiveCounters.Kind.TIMERS);
        runtime.timers.add(timer);
        return timer;
    }

    @Override
    public void halted(ActorCell cell) {
        runtime.actors.halted(cell);
    }

    @Override
    public void tornDown(ActorCell cell) {
        runtime.actors.tornDown(cell);
        if (cell.blocking) {
            runtime.blockingActors.decrement();
        }
        if (cell.lane != null) {
            cell.lane.close.actorTornDown();
        }
    }

    @Override
    public boolean isRunnerOf(ActorCell cell, Thread thread) {
        if (cell.placement instanceof Placement.Lane lane) {
            ExecutionLane handle = runtime.lanes.get(lane.name());
            return handle != null && handle.boundThread() == thread;
        }
        if (cell.placement instanceof Placement.Placed placed) {
            return runtime.scheduler.runsPlaced(placed.entry(), placed.replica(), thread);
        }
        if (cell.placement == Placement.BLOCKING) {
            return runtime.scheduler.runsBlocking(thread);
        }
        if (cell.placement instanceof Placement.Pinned pinned) {
            return runtime.scheduler.runsPinned(pinned.worker(), thread);
        }
        return runtime.scheduler.runsNormalQueue(thread);
    }

    @Override
    public long laneStallThresholdNanos() {
        return runtime.laneStallThresholdNanos;
    }

    @Override
    public AtomicLong laneStallCounter() {
        return runtime.lanes.stallReports();
    }

    @Override
    public void haltActorsOf(ExecutionLane lane) {
        runtime.shutdown.haltActorsOf(lane);
    }

    @Override
    public void tearDownOnClosingThread(ExecutionLane lane) {
        runtime.shutdown.tearDownOnClosingThread(lane);
    }
}
