package dev.lanehost.lanes;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.HeldArenas;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.observe.GuardedObserver;
import dev.lanehost.lanes.runtime.ActorRegistry;
import dev.lanehost.lanes.runtime.LiveRuntime;
import dev.lanehost.lanes.runtime.RuntimeClose;
import dev.lanehost.lanes.runtime.Spawning;
import dev.lanehost.lanes.scheduler.Scheduler;
import dev.lanehost.lanes.scheduler.SimulatedSchedule;
import dev.lanehost.lanes.scheduler.SimulatedScheduler;
import dev.lanehost.lanes.scheduler.ThreadWarmUp;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.time.TimerQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import javax.management.ObjectName;

/**
 * The actor runtime: the registry of actors and lanes, spawning, and the lifecycle (open, observed,
 * closed). How turns are scheduled is its profile's {@code Scheduler}:
 *
 * <ul>
 *   <li>{@link Profile#HOSTED} ({@code HostedScheduler}): a pool of worker threads runs the normal actors, stealing
 *       from each other's run queues, and the pinned ones; blocking actors get threads of their own, placement
 *       entries theirs, and a timer thread fires timers and watches turn budgets. Lanes are driven by their hosts.</li>
 *   <li>{@link Profile#SINGLE_THREAD} ({@code DrainScheduler}): no threads at all; the host calls
 *       {@link #drain()} or {@link #runUntilIdle(Duration)}, which also fire due timers.</li>
 *   <li>{@link Profile#SIMULATED} ({@code SimulatedScheduler}): as SINGLE_THREAD, plus a virtual clock
 *       (moved by {@link #advance}, and by {@link #runUntilIdle} up to its budget) and a seeded choice among
 *       ready actors on the normal queue <em>and every lane</em>, which the draining thread drives itself;
 *       the picks are recorded as a {@link Schedule} that can be replayed.</li>
 * </ul>
 */
public final class ActorRuntime implements Spawner, AutoCloseable {

    private final Profile profile;
    final long laneStallThresholdNanos;
    final RuntimeObserver observer;
    final TimerQueue timers = new TimerQueue();
    private final LaneRegistry lanes = new LaneRegistry();
    final Scheduler scheduler;
    final ActorRegistry actors = new ActorRegistry();
    final LiveCounters counters = new LiveCounters();
    final HeldArenas heldArenas = new HeldArenas(counters);
    /** What the cells and lanes see of this runtime. */
    private final LiveRuntime context;
    private final ThreadWarmUp warmUp;
    final RuntimeClose shutdown;
    private final RuntimeMetrics metrics;
    /** Blocking actors not yet torn down. */
    private final LongAdder blockingActors = new LongAdder();
    final Spawning spawning;

    ActorRuntime(RuntimeBuilder builder) {
        this.profile = builder.profile;
        this.laneStallThresholdNanos = builder.laneStallThreshold.toNanos();
        this.shutdown = new RuntimeClose(builder.laneCloseGrace.toNanos(), builder.turnCloseGrace.toNanos(), actors);
        this.observer = builder.observer == null ? new RuntimeObserver() { } : new GuardedObserver(builder.observer);
        this.context = builder.newContext(this, new LiveRuntime.Parts(timers, lanes, actors, counters, heldArenas,
                blockingActors, observer, shutdown, laneStallThresholdNanos));
        this.warmUp = new ThreadWarmUp(context, () -> new Lane(ThreadWarmUp.NAME, context, context, ThreadWarmUp::privateQueue,
                false));
        this.scheduler = builder.newScheduler(timers, lanes, context, this::isClosed);
        this.spawning = new Spawning(actors, lanes, scheduler, context, blockingActors);
        this.metrics = new RuntimeMetrics(context, scheduler, lanes, actors, blockingActors);
        context.attach(scheduler, spawning);
        scheduler.start();
    }

    /** A runtime of the given profile with default settings. */
    public static ActorRuntime create(Profile profile) {
        return builder(profile).build();
    }

    public static RuntimeBuilder builder(Profile profile) {
        return new RuntimeBuilder(profile);
    }

    public Profile profile() {
        return profile;
    }

    // ---------------------------------------------------------------- lanes

    /**
     * Registers a lane; the returned handle is the only way to drive it.
     *
     * @throws IllegalArgumentException if the name is blank or already registered
     * @throws IllegalStateException    if the runtime is closed
     */
    public ExecutionLane registerLane(String name) {
        Objects.requireNonNull(name, "lane name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a lane name must not be blank");
        }
        checkOpen();
        Lane lane = new Lane(name, context, context, scheduler::newLaneQueue, true);
        lanes.add(lane);
        scheduler.laneRegistered(lane);
        return new ExecutionLane(lane);
    }

    /**
     * Warms the lane drive path up on the calling thread, binding no lane: for a host's thread-init hook
     * (JACK calls it on several threads, so binding there would bind the wrong one). Called through an
     * upcall, it also attaches a foreign thread to the JVM. It runs bind, drive, turn dispatch and release
     * on a private lane and actors that exist only inside this call — rebinding the lane after a release and
     * after its bound thread ended, three letter kinds, three behaviour classes — so the first real drive from a
     * new thread runs compiled code that has seen what it does and costs microseconds, not milliseconds. The first calls on a runtime run 20,000 rounds (tens of
     * ms); once that many have run, compiled code serves every thread and a call runs 500.
     *
     * <p>Nothing registered is touched: no lane is bound and no thread renamed, the private actor is in no
     * snapshot, resource count or metric, and it takes no step of a SIMULATED schedule. Any thread, any
     * number at once. Does nothing once the runtime is closed.
     */
    public void warmUpThread() {
        warmUp.run();
    }

    /** True if a lane of this name is registered. Never drains work; for validating a spawn. */
    public boolean laneAvailable(String name) {
        return name != null && lanes.contains(name);
    }

    // ---------------------------------------------------------------- spawning

    @Override
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        checkOpen();
        return spawning.spawn(name, placement, options, factory);
    }

    /**
     * Spawns an actor pinned for life to the calling HOSTED worker (from a turn of a normal or pinned actor):
     * no other worker ever runs it, so it may keep thread-affine state. SINGLE_THREAD and SIMULATED have one
     * worker, the draining thread, whose pinned actors run like normal ones.
     *
     * @throws IllegalStateException if the runtime is HOSTED and the calling thread is not one of its workers
     */
    public ActorRef spawnPinned(String name, Supplier<? extends Behavior> factory) {
        int current = scheduler.currentWorker();
        if (current < 0 && scheduler.pool() != null) {
            throw new IllegalStateException("spawnPinned(name, factory) pins to the calling worker, and "
                    + Thread.currentThread().getName() + " is not a worker of this runtime; use spawnPinned(worker, name, factory)");
        }
        return spawnPinned(Math.max(0, current), name, factory);
    }

    /**
     * Spawns one actor per replica of a placement entry ({@code pinned(..., replicas = K)}), replica {@code i} on
     * the entry's thread {@code i}, made by {@code factory.apply(i)}; {@link Replicas#tell(Object, Object)} shards
     * messages by key, so one key always reaches the same replica.
     *
     * @throws IllegalArgumentException naming the entry if the placement starts no thread for it
     */
    public Replicas spawnReplicas(String entry, String name, IntFunction<? extends Behavior> factory) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(factory, "behaviour factory");
        int count = scheduler.replicas(entry);
        List<ActorRef> refs = new ArrayList<>(count);
        for (int replica = 0; replica < count; replica++) {
            int index = replica;
            refs.add(spawn(name + "[" + replica + "]", Placement.placed(entry, replica), SpawnOptions.DEFAULT,
                    () -> factory.apply(index)));
        }
        return new Replicas(refs);
    }

    /** A live actor by id, or null once it has halted. */
    public ActorRef lookup(long id) {
        ActorCell cell = actors.live(id);
        return cell == null ? null : cell.ref;
    }

    // ---------------------------------------------------------------- SINGLE_THREAD and SIMULATED

    /**
     * One pass: fires every due timer, then runs one turn for each actor that was runnable when the pass
     * began (work those turns create waits for the next pass). SINGLE_THREAD runs the normal queue only;
     * lanes are their hosts' to drive. SIMULATED also runs every lane that is unbound or bound to the
     * calling thread, choosing each turn's queue and actor by the seed (see {@link #schedule()}).
     *
     * @throws IllegalStateException in the HOSTED profile (its workers drain), if another thread is draining, or
     *                               once the runtime is closed ({@link #runUntilIdle} answers {@link RunStatus#CLOSED})
     */
    public DrainResult drain() {
        return scheduler.drain();
    }

    /**
     * {@link #runUntilIdle(Duration, long)} with no turn budget.
     */
    public RunStatus runUntilIdle(Duration budget) {
        return runUntilIdle(budget, 0);
    }

    /**
     * Drains pass after pass (as {@link #drain()}: due timers fire once per pass) until nothing is
     * runnable, or a budget is spent. Both budgets are checked between turns.
     *
     * <ul>
     *   <li>SINGLE_THREAD: {@code budget} is wall-clock time; one long turn overshoots it by at most
     *       itself.</li>
     *   <li>SIMULATED: {@code budget} is <em>virtual</em> time, and the wall clock is never read. Turns take
     *       no virtual time; whenever nothing is runnable, the clock jumps to the next armed timer if it falls
     *       due within {@code budget} of the clock at the call, and the run goes on. When the run ends idle
     *       the clock stands at the end of that window, so repeated calls walk forward through time. Since
     *       turns cost no virtual time, only {@code maxTurns} can stop a program that never goes idle.</li>
     * </ul>
     *
     * @param budget   zero or negative: SINGLE_THREAD has no time cap; SIMULATED does not move the clock
     *                 (only timers already due fire)
     * @param maxTurns turns after which the run stops with work left; zero or negative: no cap
     * @return {@link RunStatus#IDLE}, {@link RunStatus#TIMERS_PENDING} (nothing runnable, timers armed for
     *         later), {@link RunStatus#BUDGET_SPENT} (a budget ran out with work left: runnable actors, or in
     *         SIMULATED a timer due within the window) or {@link RunStatus#CLOSED}
     */
    public RunStatus runUntilIdle(Duration budget, long maxTurns) {
        Objects.requireNonNull(budget, "budget (Duration.ZERO for no cap)");
        if (context.isClosed()) {
            return RunStatus.CLOSED;
        }
        return scheduler.runUntilIdle(budget, maxTurns);
    }

    /**
     * SIMULATED only: moves the virtual clock forward and fires the timers that became due (their letters
     * run at the next drain, or drive of their lane). The clock starts at 1 s (0 means "not in a turn") and ends at
     * {@link Long#MAX_VALUE} ns.
     *
     * @return timers fired
     * @throws IllegalStateException    on another profile, from inside a turn (the clock stands still during turns),
     *                                  or once the runtime is closed
     * @throws IllegalArgumentException if {@code duration} is negative or would move the clock past its end
     */
    public int advance(Duration duration) {
        if (!(scheduler instanceof SimulatedScheduler simulated)) {
            throw new IllegalStateException("advance() moves the virtual clock of the SIMULATED profile; this runtime is " + profile);
        }
        return simulated.advance(duration);
    }

    /**
     * SIMULATED only: the schedule recorded so far, one step per actor pick on any queue: the normal queue
     * and lanes run by {@link #drain()}/{@link #runUntilIdle}, and lanes driven by hand. At most
     * {@link RuntimeBuilder#scheduleLimit} picks, the first ones: compare its size with {@link #schedulePicks()}.
     */
    public Schedule schedule() {
        return requireSimulated().recorded();
    }

    /** SIMULATED only: how many picks the run has made, those past {@link RuntimeBuilder#scheduleLimit} included. */
    public long schedulePicks() {
        return requireSimulated().steps();
    }

    /** SIMULATED only: why a replay diverged from its schedule, or null if it has not. */
    public String replayDivergence() {
        return requireSimulated().divergence();
    }

    // ---------------------------------------------------------------- observation

    /** The runtime clock: System.nanoTime(), or the virtual clock in SIMULATED. */
    public long nanoTime() {
        return scheduler.nanoTime();
    }

    /** One row per actor not yet torn down and one per lane, without waiting on any busy actor. */
    public Snapshot snapshot() {
        long now = nanoTime();
        return new Snapshot(now, actors.rows(now), lanes.rows(now));
    }

    /** Live resources; all zero once every actor is torn down. */
    public ResourceCounts resources() {
        return new ResourceCounts(actors.count(), counters.live(LiveCounters.Kind.SIGNALS),
                counters.live(LiveCounters.Kind.TIMERS), counters.live(LiveCounters.Kind.PARKS),
                counters.live(LiveCounters.Kind.ARENAS));
    }

    /**
     * Which clauses of the scheduler contract this runtime's profile discharges itself and which it assumes of
     * its substrate; {@link AssumptionManifest#render()} prints it.
     */
    public AssumptionManifest assumptionManifest() {
        return AssumptionManifest.of(profile);
    }

    /** The runtime's counters: stalled lanes, refused letters, queue depth, affinity results. */
    public RuntimeMetrics metrics() {
        return metrics;
    }

    /** {@link #registerMBean(String)} under the name {@code runtime-<n>}, numbered in this process (skipping numbers a program took as names). */
    public ObjectName registerMBean() {
        return RuntimeMBean.register(metrics, profile, this::isClosed, this::whenClosed, null);
    }

    /**
     * Registers this runtime's {@link ActorRuntimeMXBean} as {@code dev.lanehost:type=Runtime,name=<name>} on the platform
     * MBean server, until the runtime closes. Opt-in: a runtime registers nothing by itself.
     *
     * @throws IllegalArgumentException if the name is blank, unfit for an ObjectName, or already registered
     * @throws IllegalStateException    if the runtime is closed
     */
    public ObjectName registerMBean(String name) {
        return RuntimeMBean.register(metrics, profile, this::isClosed, this::whenClosed, Objects.requireNonNull(name, "MBean name"));
    }

    public boolean isClosed() {
        return context.isClosed();
    }

    // ---------------------------------------------------------------- close

    /** As {@link #closeAndReport()}, for try-with-resources; {@link #lastCloseReport()} keeps what it did. */
    @Override
    public void close() {
        closeAndReport();
    }

    /**
     * Closes the runtime: halts every actor with {@link ExitReason#SHUTDOWN}, stops the HOSTED threads, and
     * tears every actor down, each lane's on its lane's thread:
     * <ol>
     *   <li>a lane whose bound thread is the caller is torn down here (close() from inside one of its turns:
     *       when that turn returns);</li>
     *   <li>a lane whose bound thread is alive is torn down by that thread's next drive (or bind/release),
     *       which then returns {@link DriveStatus#CLOSED}; close waits for it, on a latch per lane, at most
     *       the lane close grace ({@link RuntimeBuilder#laneCloseGrace}) for all lanes together;</li>
     *   <li>a lane never bound, released, whose thread has ended, or whose host did not drive it within the
     *       grace is torn down on this thread, and that is logged;</li>
     *   <li>normal actors are torn down on this thread (the HOSTED worker has stopped).</li>
     * </ol>
     * Nothing interrupts a turn. Lane actors are halted first, so a host's drive during the close tears its lane down
     * and returns at once. HOSTED's threads get 5 s together to finish the turns they are in before the other actors
     * are halted (a blocking actor waiting in {@code receive} gets null at once), and a turn still running then is
     * waited for 1 s more; a turn that has not returned by then is left running on its daemon thread, its runner tears
     * the actor down when it returns, and a thread still in its turn after the 5 s is logged. So a long handler makes
     * close long. A halt drops the letters still queued for the actor: messages are counted
     * ({@link RuntimeMetrics#droppedMessages()}), tasks get {@link TurnTask#abandoned()}. To handle every message
     * already sent, stop sending and wait until the actors are idle before closing (SINGLE_THREAD and SIMULATED:
     * {@link #runUntilIdle}). A spawn racing the close either throws {@link IllegalStateException} or makes an actor
     * this close halts, never one left running. Idempotent: a second call (from any thread) tears down the lanes bound
     * to its thread, waits for the first close to finish, and returns the same report.
     *
     * @return per lane, where its actors were torn down and why
     */
    public CloseReport closeAndReport() {
        context.markClosed(); // whoever gets here first: from now on drives, binds and releases answer CLOSED
        spawning.awaitSpawnsInFlight(); // so the close halts every actor a spawn made
        CloseReport report = shutdown.run(lanes.all(), scheduler::stop);
        heldArenas.lastTry();
        return report;
    }

    /**
     * Runs {@code action} once the close has finished (on the closing thread), or now if it already has:
     * whoever holds on to the runtime for its hosts (a host ABI) lets go there. An action that throws is
     * logged and the others still run.
     */
    public void whenClosed(Runnable action) {
        shutdown.whenClosed(Objects.requireNonNull(action, "action"));
    }

    /** What the close did with each lane, or null while the runtime is open (or its close is running). */
    public CloseReport lastCloseReport() {
        return shutdown.report();
    }

    // ---------------------------------------------------------------- the cells' and lanes' side

    /** What the cells and lanes see of this runtime (a test builds a cell by hand with it). */
    LiveRuntime context() {
        return context;
    }

    private void checkOpen() {
        if (context.isClosed()) {
            throw new IllegalStateException("the runtime is closed");
        }
    }

    private SimulatedSchedule requireSimulated() {
        if (!(scheduler instanceof SimulatedScheduler simulated)) {
            throw new IllegalStateException("schedules are recorded by the SIMULATED profile; this runtime is " + profile);
        }
        return simulated.schedule();
    }
}
