package dev.lanehost.lanes;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.PlacementConfig;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.ThreadPlan;
import dev.lanehost.affinity.Topology;
import dev.lanehost.affinity.TopologyDeclaration;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.runtime.LiveRuntime;
import dev.lanehost.lanes.scheduler.DrainScheduler;
import dev.lanehost.lanes.scheduler.HostedScheduler;
import dev.lanehost.lanes.scheduler.Scheduler;
import dev.lanehost.lanes.scheduler.SimulatedSchedule;
import dev.lanehost.lanes.scheduler.SimulatedScheduler;
import dev.lanehost.lanes.scheduler.hosted.PlacementCheck;
import dev.lanehost.lanes.time.TimerQueue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/** Settings for an {@link ActorRuntime}: {@code ActorRuntime.builder(profile)...build()}. */
public final class RuntimeBuilder {
    /**
     * Fifteen frames at 60 Hz, a dozen periods of a 1024-frame audio buffer at 48 kHz, two ticks of a 10 Hz
     * control loop: a host that is still calling back drives within it, and a close whose hosts have gone
     * quiet costs a quarter of a second.
     */
    static final Duration DEFAULT_LANE_CLOSE_GRACE = Duration.ofMillis(250);
    static final Duration DEFAULT_TURN_CLOSE_GRACE = Duration.ofSeconds(1);
    /**
     * Letters a mailbox or a lane holds by default before refusing messages and tasks: about 50 MB of small
     * letters. A receiver that far behind is being outrun for good; the bound turns running out of memory into
     * refusals a sender can see.
     */
    static final long DEFAULT_CAPACITY = 1L << 20;
    /**
     * Blocking threads by default: room for a few dozen actors blocked at once (services waiting on sockets,
     * files, native calls); each idle one ends after a minute, so the bound costs nothing until it is used.
     */
    static final int DEFAULT_BLOCKING_THREADS = 64;
    /**
     * Turns of one actor a worker runs before it serves the next: enough to take a burst of letters with one
     * scheduling round trip, few enough that an actor waiting behind waits a few microseconds per actor ahead.
     */
    static final int DEFAULT_TURNS_PER_RUN = 16;
    /** SIMULATED: picks a schedule keeps by default, about 30 MB of them. */
    static final long DEFAULT_SCHEDULE_LIMIT = 1_000_000;

    final Profile profile;
    long seed = 0x1A7E5EEDL;
    /** A seed was given: only SIMULATED has a choice to seed. */
    private boolean seedGiven;
    /** Settings of HOSTED's own threads that were given, by name: another profile's build refuses them. */
    private final Set<String> hostedThreadSettings = new TreeSet<>();
    Schedule replay;
    Duration laneStallThreshold = Duration.ofSeconds(1);
    Duration laneCloseGrace = DEFAULT_LANE_CLOSE_GRACE;
    Duration turnCloseGrace = DEFAULT_TURN_CLOSE_GRACE;
    RuntimeObserver observer;
    AffinityPolicy affinityPolicy = AffinityPolicy.NONE;
    Affinity affinity;
    Topology affinityTopology;
    TurnBudget turnBudget = TurnBudget.DEFAULT;
    long mailboxCapacity = DEFAULT_CAPACITY;
    long laneCapacity = DEFAULT_CAPACITY;
    Duration idleTimeout = Duration.ZERO;
    Duration simulatedPollCost = Duration.ofNanos(1_000);
    long scheduleLimit = DEFAULT_SCHEDULE_LIMIT;
    private boolean scheduleLimitGiven;
    /** 0: as many as the CPUs this process may run on. */
    int workers;
    IdleStrategy idleStrategy = IdleStrategy.DEFAULT;
    int blockingThreads = DEFAULT_BLOCKING_THREADS;
    int turnsPerRun = DEFAULT_TURNS_PER_RUN;
    PlacementConfig placement;
    PriorityPolicy priority = PriorityPolicy.none();
    TopologyDeclaration declaredTopology = TopologyDeclaration.none();
    /** Resolved at build: the threads the placement starts. */
    List<ThreadPlan> placedThreads = List.of();

    RuntimeBuilder(Profile profile) {
        this.profile = Objects.requireNonNull(profile, "profile");
    }

    /**
     * HOSTED: how many worker threads run normal and pinned actors (default: the CPUs this process may run
     * on, as its affinity mask and container CPU quota allow). Idle workers steal normal actors from busy ones.
     *
     * @throws IllegalArgumentException if {@code workers} is not positive
     */
    public RuntimeBuilder workers(int workers) {
        if (workers <= 0) {
            throw new IllegalArgumentException("a runtime needs at least one worker; got " + workers);
        }
        this.workers = workers;
        hostedThreadSettings.add("workers");
        return this;
    }

    /**
     * HOSTED: the most threads that run blocking actors at once (default 64). Past it, runnable blocking actors
     * wait in order for a free thread ({@link ActorRuntime#spawnBlocked}).
     *
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public RuntimeBuilder blockingThreads(int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("the blocking pool needs at least one thread; got " + threads);
        }
        this.blockingThreads = threads;
        hostedThreadSettings.add("blockingThreads");
        return this;
    }

    /**
     * HOSTED: the threads of a placement configuration, started beside the workers: one per pinned entry, one per
     * replica, one per cooperative pool ({@link PlacementConfig#threadBudget()} counts them, before anything runs).
     * Actors go onto them with {@link ActorRuntime#spawnPlaced} and {@link ActorRuntime#spawnReplicas}. Validated
     * at {@link #build()} against {@code declared} and the machine: every problem at once.
     */
    public RuntimeBuilder placement(PlacementConfig config, TopologyDeclaration declared) {
        this.placement = Objects.requireNonNull(config, "placement configuration");
        this.declaredTopology = Objects.requireNonNull(declared, "topology declaration");
        return this;
    }

    /** As {@link #placement(PlacementConfig, TopologyDeclaration)} with no topology declared (cores and ranges only). */
    public RuntimeBuilder placement(PlacementConfig config) {
        return placement(config, TopologyDeclaration.none());
    }

    /** Pooled entries by name to their pool's name (entries of the main pool are left out: they have no thread). */
    Map<String, String> pooledEntries() {
        return PlacementCheck.pooledEntries(placement);
    }

    /**
     * HOSTED: the scheduling priority each of the runtime's threads (workers, blocking threads, placement threads)
     * asks for when it starts, e.g. {@code PriorityPolicy.realtime(SchedClass.FIFO, 10, 5)}: real-time where the
     * kernel allows it, else the fallback nice. Never fails the start; what each thread obtained, read back from
     * the kernel, and why not, is in {@link RuntimeMetrics#priorityResults()}. Default: {@link PriorityPolicy#none()}.
     */
    public RuntimeBuilder priority(PriorityPolicy policy) {
        this.priority = Objects.requireNonNull(policy, "priority policy");
        hostedThreadSettings.add("priority");
        return this;
    }

    /**
     * How many turns of one actor (one letter each) a HOSTED worker, or a lane's drive, runs before it moves on to
     * the next ready actor (default 16): it stops earlier when the mailbox is empty or a turn was asked to yield,
     * and a drive never runs more turns than its {@code maxTurns}. 1 gives every ready actor a turn in strict
     * rotation; more saves a run-queue round trip per letter of a busy actor. SIMULATED runs one turn per pick
     * (its seed decides every turn).
     *
     * @throws IllegalArgumentException if {@code turns} is not positive
     */
    public RuntimeBuilder turnsPerRun(int turns) {
        if (turns <= 0) {
            throw new IllegalArgumentException("a worker runs at least one turn per actor; got " + turns);
        }
        this.turnsPerRun = turns;
        return this;
    }

    /** HOSTED: how an idle worker waits for work (default {@link IdleStrategy#DEFAULT}). */
    public RuntimeBuilder idleStrategy(IdleStrategy strategy) {
        this.idleStrategy = Objects.requireNonNull(strategy, "idle strategy");
        hostedThreadSettings.add("idleStrategy");
        return this;
    }

    /** The workers asked for, or the CPUs this process may run on. */
    int workers() {
        if (workers > 0) {
            return workers;
        }
        // availableProcessors() honours the affinity mask and the container's CPU quota (cgroups).
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** SIMULATED: the seed of the choice among ready actors (another profile's {@link #build()} refuses it). */
    public RuntimeBuilder seed(long seed) {
        this.seed = seed;
        this.seedGiven = true;
        return this;
    }

    /**
     * SIMULATED: force the picks of a recorded schedule (its seed is used after it ends or diverges). A run that goes
     * on past the schedule's last step is reported as a divergence by {@link ActorRuntime#replayDivergence()} too
     * ("the replayed schedule has N steps, but ... asked for step N"), and from there it is not the original run.
     */
    public RuntimeBuilder replay(Schedule schedule) {
        this.replay = Objects.requireNonNull(schedule, "schedule");
        this.seed = schedule.seed();
        return this;
    }

    /**
     * SIMULATED: how many picks {@link ActorRuntime#schedule()} keeps (default 1,000,000, about 30 MB; each pick is
     * ~28 bytes). A longer run (a soak) goes on unrecorded past them, logging once that it does; its seed still
     * reproduces all of it. Zero records nothing. A replayed schedule is followed to its end whatever the limit.
     */
    public RuntimeBuilder scheduleLimit(long picks) {
        if (picks < 0) {
            throw new IllegalArgumentException("the schedule limit must not be negative; got " + picks);
        }
        this.scheduleLimit = picks;
        this.scheduleLimitGiven = true;
        return this;
    }

    /** How long a lane with queued work may go undriven before it is reported stalled (default 1 s). */
    public RuntimeBuilder laneStallThreshold(Duration threshold) {
        if (threshold.isNegative() || threshold.isZero()) {
            throw new IllegalArgumentException("the lane stall threshold must be positive; got " + threshold);
        }
        this.laneStallThreshold = threshold;
        return this;
    }

    /**
     * How long close waits for the hosts of lanes bound to live threads to drive them once more, so that
     * each lane's actors are torn down on its own thread (default 250 ms). Lanes not driven within it are
     * torn down on the closing thread, and the close report says so. Zero: do not wait.
     */
    public RuntimeBuilder laneCloseGrace(Duration grace) {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("the lane close grace must not be negative; got " + grace);
        }
        this.laneCloseGrace = grace;
        return this;
    }

    /**
     * How long close waits, for all actors off lanes together, for turns still running once their threads were
     * asked to stop (default 1 s); an actor whose turn runs past it is torn down by its runner when the turn returns.
     * Package-private: tests make it long, so that a close that waited for its own turn would hang visibly.
     */
    RuntimeBuilder turnCloseGrace(Duration grace) {
        this.turnCloseGrace = grace;
        return this;
    }

    /**
     * The turn budget of every actor spawned without its own (default {@link TurnBudget#DEFAULT}: 10 ms,
     * 100 ms, 3 strikes). HOSTED watches it from the timer thread; SIMULATED from the virtual clock; SINGLE_THREAD
     * can only settle it after each turn (no mid-turn yield request or disruption there).
     */
    public RuntimeBuilder turnBudget(TurnBudget budget) {
        this.turnBudget = Objects.requireNonNull(budget, "turn budget");
        return this;
    }

    /**
     * SIMULATED: the virtual time each explicit poll site ({@link ActorContext#checkpoint()},
     * {@link ActorContext#shouldYield()}) takes (default 1 µs), so that a simulated turn can run long.
     * Zero: polls take no time.
     */
    public RuntimeBuilder simulatedPollCost(Duration cost) {
        if (cost.isNegative()) {
            throw new IllegalArgumentException("the simulated poll cost must not be negative; got " + cost);
        }
        this.simulatedPollCost = cost;
        return this;
    }

    /**
     * How many letters an actor's mailbox holds before it refuses messages and tasks with
     * {@link Delivery#FULL} (default 1,048,576; an actor's own: {@link SpawnOptions#withMailboxCapacity}).
     * The runtime's own letters (timers, signals, parks, downs, exits) are never refused; the start letter holds a
     * place until the actor's first turn.
     *
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public RuntimeBuilder mailboxCapacity(long capacity) {
        this.mailboxCapacity = positive(capacity, "mailbox capacity");
        return this;
    }

    /**
     * How many letters a lane's actors hold together before they refuse messages and tasks (default 1,048,576).
     *
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public RuntimeBuilder laneCapacity(long capacity) {
        this.laneCapacity = positive(capacity, "lane capacity");
        return this;
    }

    /**
     * Reaps an actor whose mailbox stays quiet this long ({@link ExitReason#REAPED}), unless it set its own
     * timeout or {@code unneeded(NEVER)} ({@link ActorContext#unneeded}). Off by default ({@link Duration#ZERO}):
     * a lanehost actor is usually a service that a host or a gate calls at its own pace, and reaping it unasked
     * would surprise the host; turn it on (60 s is a good start) for actors that come and go.
     */
    public RuntimeBuilder idleTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.compareTo(Duration.ofDays(365 * 100)) > 0) {
            throw new IllegalArgumentException("the idle timeout must be zero (off) or positive and under a hundred years; got " + timeout);
        }
        this.idleTimeout = timeout;
        return this;
    }

    private static long positive(long capacity, String what) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a " + what + " must be at least 1; got " + capacity);
        }
        return capacity;
    }

    public RuntimeBuilder observer(RuntimeObserver observer) {
        this.observer = observer;
        return this;
    }

    /**
     * How HOSTED pins its threads (default {@link AffinityPolicy#NONE}). Validated against the real
     * topology at build; applying it never fails the runtime: each thread records applied or fell back,
     * and why ({@link RuntimeMetrics#affinityResults()}).
     */
    public RuntimeBuilder affinity(AffinityPolicy policy) {
        return affinity(policy, Affinity.system());
    }

    /** As {@link #affinity(AffinityPolicy)}, through a given affinity provider (e.g. {@link Affinity#unavailable}). */
    public RuntimeBuilder affinity(AffinityPolicy policy, Affinity provider) {
        this.affinityPolicy = Objects.requireNonNull(policy, "policy");
        this.affinity = Objects.requireNonNull(provider, "affinity provider");
        hostedThreadSettings.add("affinity");
        return this;
    }

    /**
     * @throws IllegalArgumentException if a seed, a replay or a schedule limit is set for a profile other than
     *                                  SIMULATED, a setting of HOSTED's threads (workers, blocking threads, priority,
     *                                  idle strategy, affinity, placement) for another profile, or the affinity
     *                                  policy names a CPU the topology lacks or forbids
     */
    public ActorRuntime build() {
        if (replay != null && profile != Profile.SIMULATED) {
            throw new IllegalArgumentException("replay needs the SIMULATED profile, not " + profile);
        }
        if (seedGiven && profile != Profile.SIMULATED) {
            throw new IllegalArgumentException("seed(...) seeds the SIMULATED profile's choice among ready actors; " + profile
                    + " has none to seed");
        }
        if (affinity == null) {
            affinity = Affinity.system();
        }
        if (!hostedThreadSettings.isEmpty() && profile != Profile.HOSTED) {
            throw new IllegalArgumentException(String.join(", ", hostedThreadSettings.stream().map(name -> name + "(...)").toList())
                    + " configure" + (hostedThreadSettings.size() == 1 ? "s" : "") + " the HOSTED profile's threads; this runtime is "
                    + profile + ", which runs actors on " + (profile == Profile.SIMULATED ? "the thread that drains it" : "its one thread"));
        }
        if (scheduleLimitGiven && profile != Profile.SIMULATED) {
            throw new IllegalArgumentException("scheduleLimit(...) bounds the SIMULATED profile's recorded schedule; " + profile + " records none");
        }
        if (placement != null && profile != Profile.HOSTED) {
            throw new IllegalArgumentException("a placement configuration starts threads of its own, which only HOSTED has; this runtime is " + profile);
        }
        if (profile == Profile.HOSTED) {
            affinityTopology = affinity.topology();
            placedThreads = PlacementCheck.checkAndResolve(affinityPolicy, placement, declaredTopology, affinityTopology);
        }
        return new ActorRuntime(this);
    }

    /** The scheduler of this builder's profile, with its settings. */
    Scheduler newScheduler(TimerQueue timers, LaneRegistry lanes, RuntimeContext context, BooleanSupplier closed) {
        return switch (profile) {
            case HOSTED -> new HostedScheduler(timers, lanes, context, laneStallThreshold, workers(),
                    idleStrategy, turnsPerRun, blockingThreads, affinityPolicy,
                    affinity, affinityTopology, placedThreads, pooledEntries(),
                    priority);
            case SINGLE_THREAD -> new DrainScheduler(timers, lanes, closed);
            case SIMULATED -> new SimulatedScheduler(timers, lanes, closed,
                    new SimulatedSchedule(seed, replay, scheduleLimit), simulatedPollCost.toNanos());
        };
    }

    /** What the runtime's cells and lanes see of {@code runtime}, with this builder's settings. */
    LiveRuntime newContext(Spawner runtime, LiveRuntime.Parts parts) {
        return new LiveRuntime(runtime, parts, switch (profile) {
            case HOSTED -> RuntimeContext.BudgetClock.WATCH;
            case SIMULATED -> RuntimeContext.BudgetClock.VIRTUAL;
            case SINGLE_THREAD -> RuntimeContext.BudgetClock.AFTER_TURN;
        }, new BudgetLimits(turnBudget), mailboxCapacity, laneCapacity, idleTimeout.toNanos(),
                profile == Profile.SIMULATED ? 1 : turnsPerRun);
    }
}
