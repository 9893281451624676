package dev.lanehost.lanes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A named run queue that only its host drains, by lending a thread to {@link #drive}. The handle is the
 * only drive capability: whoever holds it may drive, from one thread at a time.
 *
 * <h2>Drive protocol</h2>
 * <ol>
 *   <li>A drive (or {@link #bind()}) from a thread binds the lane to it if the lane is unbound (never bound,
 *       or {@link #release() released}) or bound to a thread that has ended ({@code !isAlive()}: the JVM
 *       detaches a foreign thread's {@link Thread} when its pthread exits). So a lane follows a host that
 *       moves its callback to a new thread; letters queued meanwhile stay queued and run on the new thread.
 *       Each bind after the first is a rebind: counted ({@link #rebinds()}) and logged (INFO) by the next
 *       observer (the HOSTED timer thread, a snapshot, a drain), never by the drive itself: a host's
 *       restarted real-time thread must not format and write a log line in its first callback. A thread
 *       still named {@code Thread-N}, as the JVM names attached foreign threads, is renamed
 *       {@code lanehost-lane-<name>} so stack dumps and JFR say what it is.</li>
 *   <li>While its bound thread is alive, nobody displaces it: a drive from any other thread returns
 *       {@link DriveStatus#WRONG_THREAD}; a drive from inside a turn this lane is running returns
 *       {@link DriveStatus#REENTRANT}. Neither runs anything. The bound thread may {@link #release()} the
 *       lane between drives, and the next thread to drive binds it.</li>
 *   <li>The drive runs up to {@code maxTurns} turns ({@code 0}: until the lane's queue is empty, including
 *       work the turns themselves queue), serving band 0 before 1, 2, 3, and reports the turns run and the
 *       letters still queued on the lane ({@link #queuedLetters()}).
 *       {@link #drive(int, DriveCounts)} does it without allocating.</li>
 *   <li>Once the runtime is closed, a drive, {@code bind()} or {@code release()} on the bound thread first
 *       runs the lane's pending teardown (its actors' {@code stopped}, release hooks, arenas), once, then
 *       returns {@link DriveStatus#CLOSED}; every other call returns {@code CLOSED} at once. So a host
 *       thread is never left blocked, and the runtime's close waits (a bounded grace) for exactly this.</li>
 * </ol>
 * A drive never throws: turn failures halt their actors, and everything else becomes a status.
 */
public final class ExecutionLane {
    private static final System.Logger LOG = System.getLogger("dev.lanehost.lanes");
    private static final VarHandle BOUND;
    private static final VarHandle DRIVES;
    private static final VarHandle TURNS;
    private static final VarHandle LAST_WORK_DRIVE;
    private static final VarHandle QUEUED_LETTERS;
    private static final VarHandle LIVE_ACTORS;
    private static final VarHandle TEARDOWN_CLAIM;
    private static final Pattern ATTACHED_THREAD_NAME = Pattern.compile("Thread-\\d+");
    /** Polls that find a producer mid-offer before a drive gives up and reports the work as remaining. */
    private static final int SPURIOUS_EMPTY_RETRIES = 100;
    /** Teardown after close: nobody else may be offering, so a few thousand pauses cover a preempted sender. */
    private static final int TEARDOWN_SPURIOUS_RETRIES = 10_000;
    private static final int TEARDOWN_OPEN = 0;
    private static final int TEARDOWN_BY_LANE_THREAD = 1;
    private static final int TEARDOWN_BY_CLOSING_THREAD = 2;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BOUND = lookup.findVarHandle(ExecutionLane.class, "boundThread", Thread.class);
            DRIVES = lookup.findVarHandle(ExecutionLane.class, "drives", long.class);
            TURNS = lookup.findVarHandle(ExecutionLane.class, "turns", long.class);
            LAST_WORK_DRIVE = lookup.findVarHandle(ExecutionLane.class, "lastWorkDriveNanos", long.class);
            QUEUED_LETTERS = lookup.findVarHandle(ExecutionLane.class, "queuedLetters", long.class);
            LIVE_ACTORS = lookup.findVarHandle(ExecutionLane.class, "liveActors", int.class);
            TEARDOWN_CLAIM = lookup.findVarHandle(ExecutionLane.class, "teardownClaim", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final ActorRuntime runtime;
    final RunQueue queue;
    /**
     * False only for the private lane of {@link ActorRuntime#warmUpThread()}: it renames no thread, logs
     * nothing and has no teardown.
     */
    private final boolean registered;
    private volatile Thread boundThread;
    // Written only by the thread that wins the bind CAS (or the bound thread releasing), so binds are serial.
    /** True once any thread has bound the lane: with no bound thread, the lane was released. */
    private volatile boolean everBound;
    private volatile long rebinds;
    /** The latest rebind, until an observer logs it (a drive never writes the log itself). */
    private volatile String unloggedRebind;
    /** Name of the thread that last released the lane, for the rebind log line. */
    private String releasedBy;
    /** Bound thread only. */
    private boolean driving;
    // Written by the bound thread with release, read by observers with acquire.
    @SuppressWarnings("unused")
    private long drives;
    @SuppressWarnings("unused")
    private long turns;
    @SuppressWarnings("unused")
    private long lastWorkDriveNanos;
    /**
     * Letters in the mailboxes of this lane's actors. Senders add one each (atomically); the driver takes
     * the letters its turns consumed once per drive, and a teardown the letters it dropped.
     */
    @SuppressWarnings("unused")
    private volatile long queuedLetters;
    /** Actors placed on this lane and not yet torn down. */
    @SuppressWarnings("unused")
    private volatile int liveActors;
    /** Close: who tears the lane down, claimed once by CAS (the lane thread, or the closing thread). */
    @SuppressWarnings("unused")
    private volatile int teardownClaim;
    /** Opened once the lane's teardown after close has finished, on whichever thread did it. */
    private final CountDownLatch tornDown = new CountDownLatch(1);
    // Stall watch, updated by observers under `this`.
    private long observedDrives;
    private long observedAtNanos;
    /** When an observer first saw work queued since the queue was last seen empty; -1 if it is empty. */
    private long workSeenSinceNanos = -1;
    private boolean reportedStalled;

    ExecutionLane(String name, ActorRuntime runtime, RunQueue queue, boolean registered) {
        this.name = name;
        this.runtime = runtime;
        this.queue = queue;
        this.registered = registered;
        this.observedAtNanos = runtime.nanoTime();
    }

    public String name() {
        return name;
    }

    /**
     * Lends the calling thread to this lane for at most {@code maxTurns} turns ({@code 0}: until quiescent).
     * Allocates a {@link DriveResult} when the drive ran something; a host's real-time callback uses
     * {@link #drive(int, DriveCounts)}.
     *
     * @return the status, the turns run, and the letters still queued on the lane ({@link #queuedLetters()})
     */
    public DriveResult drive(int maxTurns) {
        DriveCounts counts = new DriveCounts();
        int code = drive(maxTurns, counts);
        return DriveResult.of(DriveStatus.ofCode(code), counts.turns(), counts.remaining());
    }

    /**
     * As {@link #drive(int)}, allocating nothing: the turns run and the letters still queued are stored in
     * {@code out}, which the caller reuses from drive to drive (one per thread).
     *
     * @return the {@link DriveStatus#code()}; {@link DriveStatus#INVALID_ARGUMENT} if {@code maxTurns} is
     *         negative or {@code out} is null
     */
    public int drive(int maxTurns, DriveCounts out) {
        if (out == null) {
            return DriveStatus.INVALID_ARGUMENT.code();
        }
        if (maxTurns < 0) {
            return refuse(out, DriveStatus.INVALID_ARGUMENT);
        }
        Thread current = Thread.currentThread();
        if (boundThread != current) {
            DriveStatus bound = acquire(current);
            if (bound != DriveStatus.OK) {
                return refuse(out, bound);
            }
        }
        if (driving) {
            return refuse(out, DriveStatus.REENTRANT);
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread();
            return refuse(out, DriveStatus.CLOSED);
        }
        if (queue.depth() == 0) {
            // The common host callback: nothing to do. Count the drive (for the stall watch) and leave.
            DRIVES.setRelease(this, (long) DRIVES.get(this) + 1);
            out.set(0, queuedLetters());
            return DriveStatus.OK.code();
        }
        driving = true;
        int ran = 0;
        try {
            int spurious = 0;
            while (maxTurns == 0 || ran < maxTurns) {
                ActorCell cell = queue.poll();
                if (cell == null) {
                    if (queue.depth() == 0 || ++spurious > SPURIOUS_EMPTY_RETRIES) {
                        break;
                    }
                    Thread.onSpinWait(); // a sender is between queueing and linking
                    continue;
                }
                spurious = 0;
                ran += cell.runOnce();
            }
        } catch (Throwable unexpected) {
            RuntimeLog.internalError("drive of lane " + name, unexpected);
        } finally {
            driving = false;
            DRIVES.setRelease(this, (long) DRIVES.get(this) + 1);
            if (ran > 0) {
                lettersTaken(ran); // each turn took exactly one letter
                TURNS.setRelease(this, (long) TURNS.get(this) + ran);
                LAST_WORK_DRIVE.setRelease(this, runtime.nanoTime());
            }
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread(); // the runtime closed during this drive
            out.set(ran, queuedLetters());
            return DriveStatus.CLOSED.code();
        }
        out.set(ran, queuedLetters());
        return DriveStatus.OK.code();
    }

    /**
     * Binds this lane to the calling thread without driving it, e.g. from a host callback that is about to
     * drive. Any thread.
     *
     * @return {@link DriveStatus#OK} if the lane was unbound, bound to a thread that has ended, or already
     *         bound to the caller; {@link DriveStatus#WRONG_THREAD} if a live other thread holds it;
     *         {@link DriveStatus#CLOSED} once the runtime is closed (after running the lane's pending
     *         teardown, if the caller is its bound thread)
     */
    public DriveStatus bind() {
        Thread current = Thread.currentThread();
        if (runtime.isClosed()) {
            if (boundThread == current && !driving) {
                tearDownOnLaneThread();
            }
            return DriveStatus.CLOSED;
        }
        return boundThread == current ? DriveStatus.OK : acquire(current);
    }

    /**
     * Unbinds this lane from the calling thread, its bound thread, between drives, so that the next thread
     * to drive (or {@link #bind()}) binds it: for a host about to move its callback to another thread.
     * Queued letters stay queued.
     *
     * @return {@link DriveStatus#OK}; {@link DriveStatus#WRONG_THREAD} if the caller is not the bound thread;
     *         {@link DriveStatus#REENTRANT} from inside a drive of this lane; {@link DriveStatus#CLOSED} once
     *         the runtime is closed (after running the lane's pending teardown, if the caller is its bound
     *         thread)
     */
    public DriveStatus release() {
        Thread current = Thread.currentThread();
        if (boundThread != current) {
            return runtime.isClosed() ? DriveStatus.CLOSED : DriveStatus.WRONG_THREAD;
        }
        if (driving) {
            return DriveStatus.REENTRANT;
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread();
            return DriveStatus.CLOSED;
        }
        if (registered) {
            releasedBy = current.getName(); // published by the volatile store below
        }
        // Only the bound thread stores here; others only CAS away a holder that has ended, and we are alive.
        boundThread = null;
        return DriveStatus.OK;
    }

    /** Times the lane was bound again after its first binding (a host thread restart, or a release). */
    public long rebinds() {
        return rebinds;
    }

    private int refuse(DriveCounts out, DriveStatus status) {
        out.set(0, queuedLetters());
        return status.code();
    }

    /**
     * Binds the lane to {@code current} (not its bound thread) if it is unbound or its bound thread has
     * ended. A live bound thread is never displaced.
     */
    private DriveStatus acquire(Thread current) {
        if (runtime.isClosed()) {
            return DriveStatus.CLOSED;
        }
        while (true) {
            Thread holder = boundThread;
            if (holder == current) {
                return DriveStatus.OK;
            }
            // A thread that has ended cannot be inside a drive, and its end happens-before isAlive() is false.
            if (holder != null && holder.isAlive()) {
                return DriveStatus.WRONG_THREAD;
            }
            if (BOUND.compareAndSet(this, holder, current)) {
                bound(holder, current);
                return DriveStatus.OK;
            }
            // Another thread bound or released it meanwhile: look again.
        }
    }

    /** The bind CAS winner: count and log a rebind, name an attached foreign thread. */
    private void bound(Thread previous, Thread current) {
        if (!registered) {
            return;
        }
        if (everBound) {
            rebinds = rebinds + 1; // only bind winners write it, one at a time
            String from = previous != null ? previous.getName() + " (ended)" : releasedBy + " (released)";
            unloggedRebind = "lane '" + name + "' rebound from thread " + from + " to " + current.getName() + "; "
                    + queuedLetters() + " letter(s) queued carried over";
        }
        everBound = true;
        if (ATTACHED_THREAD_NAME.matcher(current.getName()).matches()) {
            current.setName("lanehost-lane-" + name);
        }
    }

    /** The thread this lane is bound to, or null before its first drive and after a release. */
    public Thread boundThread() {
        return boundThread;
    }

    /** Drives so far. */
    public long drives() {
        return (long) DRIVES.getAcquire(this);
    }

    /** Turns run by drives so far. */
    public long turns() {
        return (long) TURNS.getAcquire(this);
    }

    /**
     * Work is queued, and for the runtime's stall threshold it has waited with nobody driving the lane.
     * Measured by observation (this call, snapshots, the HOSTED timer thread), so a drive never reads the
     * clock just to be watched.
     */
    public boolean isStalled() {
        return observe(runtime.nanoTime());
    }

    /** Actors queued now, all bands. */
    public long queued() {
        return queue.depth();
    }

    /**
     * Letters waiting in the mailboxes of this lane's actors: the lane's backlog, which a host can watch
     * grow. O(1), never negative; exact between drives, and during a drive it still counts the letters that
     * drive has taken so far (the driver settles its count when the drive returns).
     */
    public long queuedLetters() {
        return Math.max(0, (long) QUEUED_LETTERS.getVolatile(this));
    }

    void letterQueued() {
        QUEUED_LETTERS.getAndAdd(this, 1L);
    }

    void lettersTaken(long letters) {
        QUEUED_LETTERS.getAndAdd(this, -letters);
    }

    // ---------------------------------------------------------------- close

    void actorSpawned() {
        LIVE_ACTORS.getAndAdd(this, 1);
    }

    void actorTornDown() {
        LIVE_ACTORS.getAndAdd(this, -1);
    }

    /** Actors placed on this lane and not yet torn down. */
    int liveActors() {
        return liveActors;
    }

    /**
     * The bound thread, outside a drive, once the runtime is closed: tear down every actor the close left on
     * this lane, here, once. A lane the closing thread has already claimed is left to it.
     */
    private void tearDownOnLaneThread() {
        if (!registered || !TEARDOWN_CLAIM.compareAndSet(this, TEARDOWN_OPEN, TEARDOWN_BY_LANE_THREAD)) {
            return;
        }
        driving = true; // a hook that drives this lane gets REENTRANT
        try {
            // The closing thread may not have halted them yet (this drive came first): halting queues each.
            runtime.haltActorsOf(this);
            int spurious = 0;
            while (liveActors() > 0) {
                ActorCell cell = queue.poll();
                if (cell == null) {
                    if (++spurious > TEARDOWN_SPURIOUS_RETRIES) {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                spurious = 0;
                cell.halt(ExitReason.SHUTDOWN); // no-op but for an actor spawned meanwhile
                cell.runOnce(); // halted: its teardown, no turn
            }
        } catch (Throwable unexpected) {
            RuntimeLog.internalError("teardown of lane " + name, unexpected);
        } finally {
            driving = false;
            tornDown.countDown();
        }
    }

    /**
     * Close, step 1, on the closing thread (every actor already halted): settle what can be settled now.
     *
     * @return the outcome, or null if the lane's bound thread is alive and its host's next drive is awaited
     */
    LaneTeardown beginClose(Thread closing) {
        if (teardownClaim == TEARDOWN_BY_LANE_THREAD) {
            return null; // a drive got here first: its teardown is running or done
        }
        if (liveActors() == 0) {
            TEARDOWN_CLAIM.compareAndSet(this, TEARDOWN_OPEN, TEARDOWN_BY_CLOSING_THREAD);
            tornDown.countDown();
            return LaneTeardown.NO_ACTORS;
        }
        Thread bound = boundThread;
        if (bound == closing) {
            if (!driving) {
                tearDownOnLaneThread();
            } // else close() ran inside a turn of this lane: the drive tears down when the turn returns
            return LaneTeardown.CLOSED_ON_LANE_THREAD;
        }
        if (bound == null) {
            return fallBack(everBound ? LaneTeardown.RELEASED : LaneTeardown.NEVER_BOUND, closing);
        }
        if (!bound.isAlive()) {
            return fallBack(LaneTeardown.THREAD_ENDED, closing);
        }
        return null;
    }

    /**
     * Close, step 2: wait (no later than {@code deadlineNanos}) for the bound thread to tear the lane down in
     * a drive; then, if it has not claimed it, tear down here and say why.
     */
    LaneTeardown awaitTeardown(long deadlineNanos, long graceNanos, Thread closing) {
        if (await(deadlineNanos)) {
            return finishedOnLaneThread(closing);
        }
        Thread bound = boundThread;
        LaneTeardown why = bound == null ? (everBound ? LaneTeardown.RELEASED : LaneTeardown.NEVER_BOUND)
                : bound.isAlive() ? LaneTeardown.GRACE_EXPIRED : LaneTeardown.THREAD_ENDED;
        LaneTeardown fell = fallBack(why, closing);
        if (fell != null) {
            return fell;
        }
        // The lane thread claimed the teardown at the last moment: give it one more grace to finish.
        return await(System.nanoTime() + graceNanos) ? finishedOnLaneThread(closing)
                : LaneTeardown.UNFINISHED_ON_LANE_THREAD;
    }

    /**
     * The lane thread's teardown has finished. An actor it could not find on the queue (a sender preempted
     * mid-queue for its whole patience) is torn down here rather than leaked, and that is logged.
     */
    private LaneTeardown finishedOnLaneThread(Thread closing) {
        int left = liveActors();
        if (left > 0) {
            RuntimeLog.logSafely(System.Logger.Level.WARNING, "lane '" + name + "': " + left + " actor(s) the lane"
                    + " thread's teardown did not reach are torn down on the closing thread " + closing.getName());
            runtime.tearDownOnClosingThread(this);
        }
        return LaneTeardown.TORN_DOWN_ON_LANE_THREAD;
    }

    /** True once the teardown finished; false at the deadline or on interrupt (the flag is kept). */
    private boolean await(long deadlineNanos) {
        try {
            return tornDown.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return tornDown.getCount() == 0;
        }
    }

    /** Tears the lane down on the closing thread, unless the lane thread claimed it first (then null). */
    private LaneTeardown fallBack(LaneTeardown why, Thread closing) {
        if (!TEARDOWN_CLAIM.compareAndSet(this, TEARDOWN_OPEN, TEARDOWN_BY_CLOSING_THREAD)) {
            return null;
        }
        int actors = liveActors();
        RuntimeLog.logSafely(why == LaneTeardown.NEVER_BOUND ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                "lane '" + name + "': " + actors + " actor(s) torn down on the closing thread " + closing.getName()
                        + ", not on a lane thread: " + why.reason());
        try {
            runtime.tearDownOnClosingThread(this);
        } finally {
            tornDown.countDown();
        }
        return why;
    }

    /**
     * Updates the stall watch: a change in the drive count since the last observation counts as "driven
     * now". Observers (snapshot, metrics, the HOSTED timer thread) call it, so a drive itself never reads
     * the clock unless it ran work.
     */
    synchronized boolean observe(long now) {
        String rebind = unloggedRebind;
        if (rebind != null) {
            unloggedRebind = null;
            RuntimeLog.logSafely(System.Logger.Level.INFO, rebind + " (" + rebinds + " rebind(s) so far)");
        }
        long seen = drives();
        if (seen != observedDrives) {
            observedDrives = seen;
            observedAtNanos = now;
        }
        boolean hasWork = queue.depth() > 0;
        if (!hasWork) {
            workSeenSinceNanos = -1;
        } else if (workSeenSinceNanos < 0) {
            workSeenSinceNanos = now;
        }
        // Stalled: work has waited the whole threshold with no drive in that time.
        boolean stalled = hasWork && now - Math.max(observedAtNanos, workSeenSinceNanos) >= runtime.laneStallThresholdNanos();
        if (stalled && !reportedStalled) {
            runtime.lanes().stalled(this, now - observedAtNanos);
        }
        reportedStalled = stalled;
        return stalled;
    }

    Snapshot.LaneRow snapshot(long now) {
        boolean stalled = observe(now);
        List<Long> bands = new ArrayList<>(RunQueue.BANDS);
        for (int band = 0; band < RunQueue.BANDS; band++) {
            bands.add(queue.depth(band));
        }
        Thread bound = boundThread;
        long lastWork = (long) LAST_WORK_DRIVE.getAcquire(this);
        long driveSeenAt;
        synchronized (this) {
            driveSeenAt = observedAtNanos;
        }
        return new Snapshot.LaneRow(name, bound == null ? null : bound.getName(), drives(), turns(),
                Math.max(0, now - driveSeenAt), lastWork == 0 ? -1 : Math.max(0, now - lastWork), List.copyOf(bands),
                queuedLetters(), rebinds(), stalled);
    }

    @Override
    public String toString() {
        return "ExecutionLane[" + name + "]";
    }
}
