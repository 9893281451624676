package dev.lanehost.lanes;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.Topology;
import dev.lanehost.lanes.internal.LiveCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The actor runtime: spawns actors on their placements, owns the lanes, the normal run queue and the
 * timers, and reports what it is doing.
 *
 * <ul>
 *   <li>{@link Profile#HOSTED}: a worker thread runs the normal queue and a timer thread fires timers.
 *       Lanes are driven by their hosts. (The multi-worker pool with stealing arrives with its issue, on
 *       this same run-queue code.)</li>
 *   <li>{@link Profile#SINGLE_THREAD}: no threads at all; the host calls {@link #drain()} or
 *       {@link #runUntilIdle(Duration)}, which also fire due timers.</li>
 *   <li>{@link Profile#SIMULATED}: as SINGLE_THREAD, plus a virtual clock (moved by {@link #advance}, and
 *       by {@link #runUntilIdle} up to its budget) and a seeded choice among ready actors on the normal
 *       queue <em>and every lane</em>, which the draining thread drives itself; the picks are recorded as a
 *       {@link Schedule} that can be replayed.</li>
 * </ul>
 */
public final class ActorRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.lanehost.lanes");
    private static final String NORMAL_QUEUE = "normal";
    /** Virtual time starts here rather than at 0, which the cells use to mean "not in a turn". */
    private static final long VIRTUAL_EPOCH = 1_000_000_000L;

    private final Profile profile;
    private final long laneStallThresholdNanos;
    private final RuntimeObserver observer;
    private final SimulatedSchedule simulated;
    private final AtomicLong virtualNanos = new AtomicLong(VIRTUAL_EPOCH);
    private final RunQueue normal;
    /** SIMULATED only: the normal queue and the lanes, chosen among by the seed. */
    private final SimulatedQueues simulatedQueues;
    private final TimerQueue timers = new TimerQueue();
    private final Map<String, ExecutionLane> lanes = new ConcurrentHashMap<>();
    private final Map<Long, ActorCell> registry = new ConcurrentHashMap<>();
    /** Every cell not yet torn down, including halted ones awaiting teardown on their placement. */
    private final Map<Long, ActorCell> cells = new ConcurrentHashMap<>();
    private final AtomicLong nextActorId = new AtomicLong();
    private final AtomicLong nextTimerSequence = new AtomicLong();
    private final AtomicReference<Thread> drainer = new AtomicReference<>();
    private final LiveCounters counters = new LiveCounters();
    private final AtomicLong stallReports = new AtomicLong();
    private final ThreadWarmUp warmUp = new ThreadWarmUp(this);
    private volatile boolean closed;
    private final RuntimeClose shutdown;
    private final java.util.Queue<Runnable> closeActions = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final HostedThreads hosted;
    private final AffinityPolicy affinityPolicy;
    private final Affinity affinity;
    /** Thread name to what applying the affinity policy to it did; written once per thread at its start. */
    private final Map<String, AffinityResult> affinityResults = new ConcurrentHashMap<>();

    private ActorRuntime(Builder builder) {
        this.profile = builder.profile;
        this.laneStallThresholdNanos = builder.laneStallThreshold.toNanos();
        this.shutdown = new RuntimeClose(builder.laneCloseGrace.toNanos());
        this.observer = builder.observer == null ? new RuntimeObserver() { } : guarded(builder.observer);
        this.simulated = profile == Profile.SIMULATED ? new SimulatedSchedule(builder.seed, builder.replay) : null;
        this.affinityPolicy = builder.affinityPolicy;
        this.affinity = builder.affinity;
        this.hosted = profile == Profile.HOSTED ? new HostedThreads(builder.affinityTopology) : null;
        this.normal = new RunQueue(NORMAL_QUEUE, simulated, hosted == null ? null : hosted::wakeWorker);
        this.simulatedQueues = simulated == null ? null : new SimulatedQueues(normal, simulated);
        if (hosted != null) {
            hosted.start();
        }
    }

    /** A runtime of the given profile with default settings. */
    public static ActorRuntime create(Profile profile) {
        return builder(profile).build();
    }

    public static Builder builder(Profile profile) {
        return new Builder(profile);
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
        ExecutionLane lane = new ExecutionLane(name, this, new RunQueue(name, simulated, null), true);
        if (lanes.putIfAbsent(name, lane) != null) {
            throw new IllegalArgumentException("a lane named '" + name + "' is already registered; lane names are unique");
        }
        if (simulatedQueues != null) {
            simulatedQueues.laneRegistered(lane);
        }
        return lane;
    }

    /**
     * Warms the lane drive path up on the calling thread, binding no lane: for a host's thread-init hook
     * (JACK calls it on several threads, so binding there would bind the wrong one). Called through an
     * upcall, it also attaches a foreign thread to the JVM. It runs bind, drive, turn dispatch and release
     * on a private lane and actor that exist only inside this call, so the first real drive runs compiled
     * code and costs microseconds, not milliseconds. The first calls on a runtime run 20,000 rounds (tens of
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
        return name != null && lanes.containsKey(name);
    }

    // ---------------------------------------------------------------- spawning

    /**
     * Spawns an actor on the normal placement. The factory and {@link Behavior#started} run as the
     * actor's first turn, on that placement.
     */
    public ActorRef spawn(String name, Supplier<? extends Behavior> factory) {
        return spawn(name, factory, Placement.NORMAL, null);
    }

    /**
     * Spawns an actor pinned to a lane for life. Its start is deferred onto the lane: the factory and
     * {@link Behavior#started} run in the lane's next drive, never on the spawning thread, and every later
     * wakeup queues it on the same lane.
     *
     * @throws IllegalArgumentException naming the lane if no lane of that name is registered
     */
    public ActorRef spawnOnLane(String lane, String name, Supplier<? extends Behavior> factory) {
        Objects.requireNonNull(lane, "lane name");
        ExecutionLane target = lanes.get(lane);
        if (target == null) {
            throw new IllegalArgumentException("cannot spawn '" + name + "' on lane '" + lane
                    + "': no lane of that name is registered (registered: " + new TreeSet<>(lanes.keySet()) + ")");
        }
        return spawn(name, factory, Placement.lane(lane), target);
    }

    private ActorRef spawn(String name, Supplier<? extends Behavior> factory, Placement placement, ExecutionLane lane) {
        Objects.requireNonNull(name, "actor name");
        Objects.requireNonNull(factory, "behaviour factory");
        checkOpen();
        RunQueue home = lane == null ? normal : lane.queue;
        ActorCell cell = new ActorCell(nextActorId.incrementAndGet(), name, placement, this, home, lane, factory);
        if (lane != null) {
            lane.actorSpawned();
        }
        registry.put(cell.id, cell);
        cells.put(cell.id, cell);
        cell.schedule();
        return cell.ref;
    }

    /** A live actor by id, or null once it has halted. */
    public ActorRef lookup(long id) {
        ActorCell cell = registry.get(id);
        return cell == null ? null : cell.ref;
    }

    // ---------------------------------------------------------------- SINGLE_THREAD and SIMULATED

    /**
     * One pass: fires every due timer, then runs one turn for each actor that was runnable when the pass
     * began (work those turns create waits for the next pass). SINGLE_THREAD runs the normal queue only;
     * lanes are their hosts' to drive. SIMULATED also runs every lane that is unbound or bound to the
     * calling thread, choosing each turn's queue and actor by the seed (see {@link #schedule()}).
     *
     * @throws IllegalStateException in the HOSTED profile (its worker drains), or if another thread is draining
     */
    public DrainResult drain() {
        enterDrain();
        Thread host = Thread.currentThread();
        try {
            int fired = timers.fireDue(nanoTime());
            int turns = 0;
            long pending = runnable(host);
            for (long i = 0; i < pending; i++) {
                int ran = runOne(host);
                if (ran < 0) {
                    break; // a sender is mid-queue: its actor runs in the next pass
                }
                turns += ran;
            }
            observeLanes();
            return new DrainResult(turns, fired, runnable(host));
        } finally {
            drainer.set(null);
        }
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
        if (closed) {
            return RunStatus.CLOSED;
        }
        boolean timed = !budget.isNegative() && !budget.isZero();
        boolean virtual = profile == Profile.SIMULATED;
        long budgetNanos = timed ? saturatedNanos(budget) : 0;
        boolean wallCapped = timed && !virtual;
        long wallDeadline = wallCapped ? System.nanoTime() + budgetNanos : 0;
        boolean turnCapped = maxTurns > 0;
        enterDrain();
        Thread host = Thread.currentThread();
        try {
            // SIMULATED: the latest virtual instant this run may reach (the clock at the call if untimed).
            long windowEnd = virtual ? saturatedAdd(virtualNanos.get(), budgetNanos) : 0;
            long turns = 0;
            int spurious = 0;
            while (true) {
                timers.fireDue(nanoTime());
                long pending = runnable(host);
                if (pending == 0 || spurious > SPURIOUS_EMPTY_PASSES) {
                    if (virtual && pending == 0 && jumpToNextTimerWithin(windowEnd)) {
                        continue;
                    }
                    return quiescent(virtual, windowEnd);
                }
                long polled = 0;
                for (; polled < pending; polled++) {
                    int ran = runOne(host);
                    if (ran < 0) {
                        break;
                    }
                    turns += ran;
                    if ((turnCapped && turns >= maxTurns) || (wallCapped && System.nanoTime() - wallDeadline >= 0)) {
                        boolean workLeft = runnable(host) > 0 || (virtual && timers.hasArmedDueBy(windowEnd));
                        return workLeft ? RunStatus.BUDGET_SPENT : quiescent(virtual, windowEnd);
                    }
                }
                if (polled == 0) {
                    spurious++;
                    Thread.onSpinWait(); // a sender is between queueing and linking
                } else {
                    spurious = 0;
                }
            }
        } finally {
            drainer.set(null);
        }
    }

    /**
     * Fifteen frames at 60 Hz, a dozen periods of a 1024-frame audio buffer at 48 kHz, two ticks of a 10 Hz
     * control loop: a host that is still calling back drives within it, and a close whose hosts have gone
     * quiet costs a quarter of a second.
     */
    static final Duration DEFAULT_LANE_CLOSE_GRACE = Duration.ofMillis(250);

    /** Passes that find a sender mid-queue (counted, nothing pollable) before the queue is taken as idle. */
    private static final int SPURIOUS_EMPTY_PASSES = 1000;

    /** Actors the draining thread would run now: the normal queue, and in SIMULATED the lanes it drives. */
    private long runnable(Thread host) {
        return simulatedQueues != null ? simulatedQueues.runnable(host) : normal.depth();
    }

    /** One turn of the draining thread's work. @return turns run (0 or 1), or -1 if nothing could be polled */
    private int runOne(Thread host) {
        if (simulatedQueues != null) {
            return simulatedQueues.runOne(host);
        }
        ActorCell cell = normal.poll();
        return cell == null ? -1 : cell.runOnce();
    }

    /** SIMULATED, nothing runnable: moves the clock to the next armed timer if it is due by {@code windowEnd}. */
    private boolean jumpToNextTimerWithin(long windowEnd) {
        if (!timers.hasArmedDueBy(windowEnd)) {
            return false;
        }
        virtualNanos.accumulateAndGet(timers.nextDeadlineWithin(windowEnd), Math::max);
        return true;
    }

    /** The end of a run with nothing left to do in it; SIMULATED spends the rest of the window. */
    private RunStatus quiescent(boolean virtual, long windowEnd) {
        if (virtual) {
            virtualNanos.accumulateAndGet(windowEnd, Math::max); // no timer is due by then, so none is skipped
        }
        observeLanes();
        return timers.hasArmed() ? RunStatus.TIMERS_PENDING : RunStatus.IDLE;
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * SIMULATED only: moves the virtual clock forward and fires the timers that became due (their letters
     * run at the next drain, or drive of their lane).
     *
     * @return timers fired
     */
    public int advance(Duration duration) {
        if (profile != Profile.SIMULATED) {
            throw new IllegalStateException("advance() moves the virtual clock of the SIMULATED profile; this runtime is " + profile);
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward; got " + duration);
        }
        long now = virtualNanos.addAndGet(duration.toNanos());
        return timers.fireDue(now);
    }

    /**
     * SIMULATED only: the schedule recorded so far, one step per actor pick on any queue: the normal queue
     * and lanes run by {@link #drain()}/{@link #runUntilIdle}, and lanes driven by hand.
     */
    public Schedule schedule() {
        return requireSimulated().recorded();
    }

    /** SIMULATED only: why a replay diverged from its schedule, or null if it has not. */
    public String replayDivergence() {
        return requireSimulated().divergence();
    }

    // ---------------------------------------------------------------- observation

    /** The runtime clock: System.nanoTime(), or the virtual clock in SIMULATED. */
    public long nanoTime() {
        return profile == Profile.SIMULATED ? virtualNanos.get() : System.nanoTime();
    }

    /** One row per actor not yet torn down and one per lane, without waiting on any busy actor. */
    public Snapshot snapshot() {
        long now = nanoTime();
        List<Snapshot.ActorRow> actors = new ArrayList<>();
        for (ActorCell cell : cells.values()) {
            actors.add(cell.snapshot(now));
        }
        actors.sort(Comparator.comparingLong(Snapshot.ActorRow::id));
        List<Snapshot.LaneRow> laneRows = new ArrayList<>();
        for (ExecutionLane lane : lanes.values()) {
            laneRows.add(lane.snapshot(now));
        }
        laneRows.sort(Comparator.comparing(Snapshot.LaneRow::name));
        return new Snapshot(now, List.copyOf(actors), List.copyOf(laneRows));
    }

    /** Live resources; all zero once every actor is torn down. */
    public ResourceCounts resources() {
        return new ResourceCounts(cells.size(), counters.live(LiveCounters.Kind.SIGNALS),
                counters.live(LiveCounters.Kind.TIMERS), counters.live(LiveCounters.Kind.PARKS),
                counters.live(LiveCounters.Kind.ARENAS));
    }

    /** Lanes with queued work that nobody has driven for the stall threshold (a metric). */
    public int stalledLanes() {
        int stalled = 0;
        long now = nanoTime();
        for (ExecutionLane lane : lanes.values()) {
            if (lane.observe(now)) {
                stalled++;
            }
        }
        return stalled;
    }

    /** Times a lane was first seen stalled (one per stall episode). */
    public long laneStallReports() {
        return stallReports.get();
    }

    /**
     * What applying the affinity policy did to each runtime thread (HOSTED: the worker), by thread name:
     * applied, fell back (and why), or not requested. Recorded when the thread starts, before it runs a turn.
     */
    public Map<String, AffinityResult> affinityResults() {
        return Map.copyOf(affinityResults);
    }

    /** Runtime threads whose affinity policy was applied (a metric). */
    public long affinitySuccesses() {
        return affinityResults.values().stream().filter(AffinityResult::isApplied).count();
    }

    /** Runtime threads whose affinity policy asked for CPUs but fell back (a metric). */
    public long affinityFailures() {
        return affinityResults.values().stream().filter(r -> r.outcome() == AffinityResult.Outcome.FELL_BACK).count();
    }

    /** Actors queued on the normal placement. */
    public long normalQueued() {
        return normal.depth();
    }

    public boolean isClosed() {
        return closed;
    }

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
     *       the lane close grace ({@link Builder#laneCloseGrace}) for all lanes together;</li>
     *   <li>a lane never bound, released, whose thread has ended, or whose host did not drive it within the
     *       grace is torn down on this thread, and that is logged;</li>
     *   <li>normal actors are torn down on this thread (the HOSTED worker has stopped).</li>
     * </ol>
     * Idempotent: a second call (from any thread) tears down the lanes bound to its thread, waits for the
     * first close to finish, and returns the same report.
     *
     * @return per lane, where its actors were torn down and why
     */
    public CloseReport closeAndReport() {
        closed = true; // whoever gets here first: from now on drives, binds and releases answer CLOSED
        CloseReport report = shutdown.run(lanes.values(), this::stopHostedThreads, this::cellsInIdOrder);
        runCloseActions();
        return report;
    }

    /**
     * Runs {@code action} once the close has finished (on the closing thread), or now if it already has:
     * whoever holds on to the runtime for its hosts (a host ABI) lets go there. An action that throws is
     * logged and the others still run.
     */
    public void whenClosed(Runnable action) {
        Objects.requireNonNull(action, "action");
        closeActions.add(action);
        if (shutdown.report() != null) {
            runCloseActions();
        }
    }

    private void runCloseActions() {
        Runnable action;
        while ((action = closeActions.poll()) != null) {
            try {
                action.run();
            } catch (Throwable failure) {
                internalError("a close action", failure);
            }
        }
    }

    /** What the close did with each lane, or null while the runtime is open (or its close is running). */
    public CloseReport lastCloseReport() {
        return shutdown.report();
    }

    private void stopHostedThreads() {
        if (hosted != null) {
            hosted.stop();
        }
    }

    // ---------------------------------------------------------------- package: the cells' side

    boolean isRunnerOf(ActorCell cell, Thread thread) {
        if (cell.placement instanceof Placement.Lane lane) {
            ExecutionLane handle = lanes.get(lane.name());
            return handle != null && handle.boundThread() == thread;
        }
        return hosted != null ? hosted.worker == thread : drainer.get() == thread;
    }

    RuntimeObserver observer() {
        return observer;
    }

    long laneStallThresholdNanos() {
        return laneStallThresholdNanos;
    }

    void unregister(ActorCell cell) {
        registry.remove(cell.id);
    }

    void actorTornDown(ActorCell cell) {
        cells.remove(cell.id);
        if (cell.lane != null) {
            cell.lane.actorTornDown();
        }
    }

    /** Close: halts every actor of one lane (each halt queues the actor on the lane for its teardown). */
    void haltActorsOf(ExecutionLane lane) {
        for (ActorCell cell : cellsInIdOrder()) {
            if (cell.lane == lane) {
                cell.halt(ExitReason.SHUTDOWN);
            }
        }
        shutdown.awaitHalts(); // an actor the closing thread claimed is queued for teardown once this returns
    }

    /** Close's fallback for one lane, on the closing thread: its actors, in id order. */
    void tearDownOnClosingThread(ExecutionLane lane) {
        for (ActorCell cell : cellsInIdOrder()) {
            if (cell.lane == lane) {
                cell.halt(ExitReason.SHUTDOWN); // no-op but for an actor spawned as the close began
                cell.finishOnClose();
            }
        }
    }

    private List<ActorCell> cellsInIdOrder() {
        List<ActorCell> ordered = new ArrayList<>(cells.values());
        ordered.sort(Comparator.comparingLong(cell -> cell.id));
        return ordered;
    }

    Timer newTimer(ActorCell owner, Duration delay, TurnCallback callback) {
        long now = nanoTime();
        long nanos = delay.isNegative() ? 0 : delay.toNanos();
        long deadline = Long.MAX_VALUE - now < nanos ? Long.MAX_VALUE : now + nanos;
        return new Timer(owner, deadline, nextTimerSequence.incrementAndGet(), callback);
    }

    void arm(Timer timer) {
        counters.opened(LiveCounters.Kind.TIMERS);
        timers.add(timer);
    }

    /** Live signals, timers, parks and arenas: whoever opens or ends one reports it here. */
    LiveCounters counters() {
        return counters;
    }

    /**
     * A turn threw and halted its actor. The line names the actor, its placement and the exception's class;
     * the exception itself goes to the logger, never through its {@code getMessage}/{@code toString} here,
     * and nothing the logger does may break the halt that follows.
     */
    void turnFailed(ActorCell cell, Throwable failure) {
        logSafely(System.Logger.Level.WARNING, "actor " + cell.id + " '" + cell.name + "' on " + cell.placement
                + " halted: a turn threw " + failure.getClass().getName(), failure);
    }

    void hookFailed(ActorCell cell, String what, Throwable failure) {
        logSafely(System.Logger.Level.WARNING, "actor " + cell.id + " '" + cell.name + "' on " + cell.placement + ": "
                + what + " threw " + failure.getClass().getName(), failure);
    }

    void internalError(String where, Throwable failure) {
        logSafely(System.Logger.Level.ERROR, "lanehost internal error in " + where + ": " + failure.getClass().getName(), failure);
    }

    /** Logs from a path that must not throw (a halt, a teardown, a drive): a failing logger is swallowed. */
    static void logSafely(System.Logger.Level level, String message, Throwable failure) {
        try {
            LOG.log(level, message, failure);
        } catch (Throwable ignored) {
            // The logger (or the exception it formats) failed; the runtime's own path goes on.
        }
    }

    static void logSafely(System.Logger.Level level, String message) {
        try {
            LOG.log(level, message);
        } catch (Throwable ignored) {
            // As above: logging never breaks a runtime path.
        }
    }

    void laneStalled(ExecutionLane lane, long nanos) {
        stallReports.incrementAndGet();
        LOG.log(System.Logger.Level.WARNING, "lane '" + lane.name() + "' has " + lane.queued() + " actor(s) with "
                + lane.queuedLetters() + " letter(s) queued and has not been driven for " + nanos / 1_000_000 + " ms: its host stopped calling back?");
    }

    private void observeLanes() {
        long now = nanoTime();
        for (ExecutionLane lane : lanes.values()) {
            lane.observe(now);
        }
    }

    private void enterDrain() {
        if (profile == Profile.HOSTED) {
            throw new IllegalStateException("drain() and runUntilIdle() are for SINGLE_THREAD and SIMULATED; "
                    + "in HOSTED the worker thread runs the normal queue");
        }
        checkOpen();
        Thread current = Thread.currentThread();
        if (!drainer.compareAndSet(null, current)) {
            throw new IllegalStateException("the runtime is already being drained by " + drainer.get()
                    + "; SINGLE_THREAD and SIMULATED have one host thread at a time");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the runtime is closed");
        }
    }

    private SimulatedSchedule requireSimulated() {
        if (simulated == null) {
            throw new IllegalStateException("schedules are recorded by the SIMULATED profile; this runtime is " + profile);
        }
        return simulated;
    }

    private static RuntimeObserver guarded(RuntimeObserver delegate) {
        return new RuntimeObserver() {
            @Override
            public void haltStep(ActorRef actor, HaltStep step) {
                try {
                    delegate.haltStep(actor, step);
                } catch (Throwable e) {
                    LOG.log(System.Logger.Level.WARNING, "RuntimeObserver.haltStep threw", e);
                }
            }
        };
    }

    /** HOSTED: the worker that runs the normal queue, and the timer thread. */
    private final class HostedThreads {
        /** Bounds the timer thread's sleep so lane stall checks run even with no timer armed. */
        private final long maxTimerWaitNanos = Math.max(1_000_000L, laneStallThresholdNanos / 2);
        private final Thread worker = Thread.ofPlatform().name("lanehost-worker-0").daemon().unstarted(this::runWorker);
        private final Thread timer = Thread.ofPlatform().name("lanehost-timer").daemon().unstarted(this::runTimers);
        private final Topology topology;
        /** start() returns once the worker has applied its affinity, so results are there to read. */
        private final CountDownLatch placed = new CountDownLatch(1);
        private volatile boolean workerIdle;
        private volatile boolean running = true;

        HostedThreads(Topology topology) {
            this.topology = topology;
        }
        /**
         * Polls before the worker parks: about 50 µs of PAUSEs, longer than a futex wake-up on a VM (5-10 µs)
         * and short enough that an idle runtime costs nothing measurable; a reply to a caller who is still
         * spinning then never waits on a wake-up.
         */
        private static final int WORKER_SPINS_BEFORE_PARK = 2_000;
        /** close() waits this long for a turn in progress; a turn that never returns must not hang the host. */
        private static final long STOP_GRACE_MILLIS = 5_000;

        void start() {
            worker.start();
            timer.start();
            boolean interrupted = false;
            while (true) {
                try {
                    placed.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void wakeWorker() {
            if (workerIdle) {
                LockSupport.unpark(worker);
            }
        }

        void stop() {
            running = false;
            LockSupport.unpark(worker);
            timer.interrupt();
            boolean interrupted = false;
            for (Thread thread : List.of(worker, timer)) {
                if (thread == Thread.currentThread()) {
                    continue; // close() from a turn or a timer callback: that thread ends by itself
                }
                try {
                    thread.join(STOP_GRACE_MILLIS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (thread.isAlive()) {
                    // A turn that never returns cannot be stopped in Java; the thread is a daemon.
                    LOG.log(System.Logger.Level.WARNING, thread.getName() + " is still inside a turn after "
                            + STOP_GRACE_MILLIS + " ms; close() leaves it running");
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        private void runWorker() {
            try {
                affinityResults.put(worker.getName(), affinityPolicy.applyToCurrentThread(0, topology, affinity));
            } catch (Throwable e) {
                internalError("applying the affinity policy to " + worker.getName(), e);
            } finally {
                placed.countDown();
            }
            int idleSpins = 0;
            while (running) {
                ActorCell cell = normal.poll();
                if (cell != null) {
                    cell.runOnce();
                    idleSpins = 0;
                    continue;
                }
                if (idleSpins++ < WORKER_SPINS_BEFORE_PARK) {
                    Thread.onSpinWait();
                    continue;
                }
                idleSpins = 0;
                // Idle protocol: announce, re-check (a sender's offer-then-check sees one or the other), park.
                workerIdle = true;
                if (normal.depth() == 0 && running) {
                    LockSupport.park(this);
                }
                workerIdle = false;
            }
        }

        private void runTimers() {
            while (running) {
                try {
                    timers.awaitDue(System::nanoTime, maxTimerWaitNanos);
                } catch (InterruptedException e) {
                    if (!running) {
                        return;
                    }
                }
                timers.fireDue(System.nanoTime());
                observeLanes();
            }
        }
    }

    /** Settings for a runtime. */
    public static final class Builder {
        private final Profile profile;
        private long seed = 0x1A7E5EEDL;
        private Schedule replay;
        private Duration laneStallThreshold = Duration.ofSeconds(1);
        private Duration laneCloseGrace = DEFAULT_LANE_CLOSE_GRACE;
        private RuntimeObserver observer;
        private AffinityPolicy affinityPolicy = AffinityPolicy.NONE;
        private Affinity affinity;
        private Topology affinityTopology;

        private Builder(Profile profile) {
            this.profile = Objects.requireNonNull(profile, "profile");
        }

        /** SIMULATED: the seed of the choice among ready actors. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** SIMULATED: force the picks of a recorded schedule (its seed is used after it ends or diverges). */
        public Builder replay(Schedule schedule) {
            this.replay = Objects.requireNonNull(schedule, "schedule");
            this.seed = schedule.seed();
            return this;
        }

        /** How long a lane with queued work may go undriven before it is reported stalled (default 1 s). */
        public Builder laneStallThreshold(Duration threshold) {
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
        public Builder laneCloseGrace(Duration grace) {
            if (grace.isNegative()) {
                throw new IllegalArgumentException("the lane close grace must not be negative; got " + grace);
            }
            this.laneCloseGrace = grace;
            return this;
        }

        public Builder observer(RuntimeObserver observer) {
            this.observer = observer;
            return this;
        }

        /**
         * How HOSTED pins its threads (default {@link AffinityPolicy#NONE}). Validated against the real
         * topology at build; applying it never fails the runtime: each thread records applied or fell back,
         * and why ({@link ActorRuntime#affinityResults()}).
         */
        public Builder affinity(AffinityPolicy policy) {
            return affinity(policy, Affinity.system());
        }

        /** As {@link #affinity(AffinityPolicy)}, through a given affinity provider (e.g. {@link Affinity#unavailable}). */
        public Builder affinity(AffinityPolicy policy, Affinity provider) {
            this.affinityPolicy = Objects.requireNonNull(policy, "policy");
            this.affinity = Objects.requireNonNull(provider, "affinity provider");
            return this;
        }

        /**
         * @throws IllegalArgumentException if replay is set for a profile other than SIMULATED, or the
         *                                  affinity policy names a CPU the topology lacks or forbids
         */
        public ActorRuntime build() {
            if (replay != null && profile != Profile.SIMULATED) {
                throw new IllegalArgumentException("replay needs the SIMULATED profile, not " + profile);
            }
            if (affinity == null) {
                affinity = Affinity.system();
            }
            if (profile == Profile.HOSTED) {
                affinityTopology = affinity.topology();
                affinityPolicy.validate(affinityTopology); // an unknown or disallowed CPU is named here, before any thread starts
            }
            return new ActorRuntime(this);
        }
    }
}
