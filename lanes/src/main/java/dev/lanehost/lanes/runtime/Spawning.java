package dev.lanehost.lanes.runtime;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnBudget;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.OptionsAccess;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RoamingQueues;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.mailbox.LaneCounters;
import dev.lanehost.lanes.scheduler.Scheduler;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Makes actors: resolves a {@link Placement} to the run queue the new actor starts on (naming what is missing),
 * builds its cell with the runtime's defaults and its options, registers it and queues its start.
 */
public final class Spawning {
    private static final OptionsAccess<SpawnOptions, ?, TurnBudget> OPTIONS = Access.options();

    private final ActorRegistry actors;
    private final LaneRegistry lanes;
    private final Scheduler scheduler;
    private final RuntimeContext context;
    private final LongAdder blockingActors;
    /**
     * Spawns between their look at the runtime's closed mark and their actor's registration. The close waits until
     * there are none ({@link #awaitSpawnsInFlight}), so its list of actors holds every actor a spawn made: a spawn
     * counts itself in, then looks at the mark; the close marks, then looks at this count (both volatile, so at least
     * one of them sees the other).
     */
    private final AtomicInteger inFlight = new AtomicInteger();

    public Spawning(ActorRegistry actors, LaneRegistry lanes, Scheduler scheduler, RuntimeContext context, LongAdder blockingActors) {
        this.actors = actors;
        this.lanes = lanes;
        this.scheduler = scheduler;
        this.context = context;
        this.blockingActors = blockingActors;
    }

    /** {@link dev.lanehost.lanes.ActorRuntime#spawn(String, Placement, SpawnOptions, Supplier)}, the runtime being open. */
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        Objects.requireNonNull(name, "actor name");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(options, "spawn options");
        Objects.requireNonNull(factory, "behaviour factory");
        Lane lane = placement instanceof Placement.Lane named ? laneFor(named.name(), name) : null;
        RunQueue home = switch (placement) {
            case Placement.Normal normal -> scheduler.spawnQueue();
            case Placement.Lane named -> lane.queue();
            case Placement.Pinned pinned -> scheduler.pinnedQueue(pinned.worker());
            case Placement.Blocking blocking -> scheduler.blockingQueue();
            case Placement.Placed placed -> scheduler.placedQueue(placed.entry(), placed.replica());
        };
        return spawn(name, options, factory, placement, home, lane == null ? null : lane.counters(), false);
    }

    /** A supervisor's restart: the successor of a halted actor, with its name, placement, options and factory. */
    ActorRef respawn(ActorCell predecessor) {
        return spawn(predecessor.name, predecessor.options, predecessor.factory, predecessor.placement,
                predecessor.home, predecessor.lane, true);
    }

    private Lane laneFor(String lane, String actor) {
        Lane target = lanes.get(lane);
        if (target == null) {
            throw new IllegalArgumentException("cannot spawn '" + actor + "' on lane '" + lane
                    + "': no lane of that name is registered (registered: " + lanes.names() + ")");
        }
        return target;
    }

    private ActorRef spawn(String name, SpawnOptions options, Supplier<? extends Behavior> factory, Placement placement,
                           RunQueue home, LaneCounters lane, boolean successor) {
        inFlight.incrementAndGet();
        try {
            if (context.isClosed()) {
                throw new IllegalStateException("the runtime is closed");
            }
            return register(name, options, factory, placement, home, lane, successor);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * The runtime's close, once it has marked the runtime closed: waits for the spawns that looked at the mark before
     * it was set to register their actors. Spawns run no user code, so this waits for a few instructions, or for a
     * spawning thread the machine holds off the CPU.
     */
    public void awaitSpawnsInFlight() {
        while (inFlight.get() != 0) {
            Thread.yield();
        }
    }

    private ActorRef register(String name, SpawnOptions options, Supplier<? extends Behavior> factory, Placement placement,
                              RunQueue home, LaneCounters lane, boolean successor) {
        RoamingQueues roamsIn = placement == Placement.NORMAL ? scheduler.pool() : null;
        BudgetLimits budget = context.defaultBudget;
        if (OPTIONS.budget(options) != null) {
            budget = new BudgetLimits(OPTIONS.budget(options));
            scheduler.budgetInUse(budget);
        }
        long mailboxCapacity = OPTIONS.mailboxCapacity(options) > 0 ? OPTIONS.mailboxCapacity(options) : context.mailboxCapacity;
        ActorCell cell = new ActorCell(actors.nextId(), name, placement, context, home, roamsIn, lane, budget,
                mailboxCapacity, options, factory);
        if (successor) {
            cell.context.markSuccessor(); // before the cell is published: its runner reads it under the turn lock
        }
        if (lane != null) {
            lane.actorSpawned();
        }
        if (cell.blocking) {
            blockingActors.increment();
        }
        actors.add(cell);
        cell.enqueue();
        return cell.ref;
    }
}
