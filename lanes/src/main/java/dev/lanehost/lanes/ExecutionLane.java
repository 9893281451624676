package dev.lanehost.lanes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A named run queue that only its host drains, by lending a thread to {@link #drive}. The handle is the
 * only drive capability: whoever holds it may drive, from one thread.
 *
 * <h2>Drive protocol</h2>
 * <ol>
 *   <li>The first drive binds the lane to the calling thread (usually a foreign thread entering through
 *       an FFM upcall; the JVM keeps the same {@link Thread} for it until the pthread exits). A thread
 *       still named {@code Thread-N}, as the JVM names attached foreign threads, is renamed
 *       {@code lanehost-lane-<name>} so stack dumps and JFR say what it is.</li>
 *   <li>A drive from any other thread returns {@link DriveStatus#WRONG_THREAD}; a drive from inside a turn
 *       this lane is running returns {@link DriveStatus#REENTRANT}. Neither runs anything.</li>
 *   <li>The drive runs up to {@code maxTurns} turns ({@code 0}: until the lane's queue is empty, including
 *       work the turns themselves queue), serving band 0 before 1, 2, 3.</li>
 * </ol>
 * A drive never throws: turn failures halt their actors, and everything else becomes a status.
 */
public final class ExecutionLane {
    private static final VarHandle BOUND;
    private static final VarHandle DRIVES;
    private static final VarHandle TURNS;
    private static final VarHandle LAST_WORK_DRIVE;
    private static final VarHandle QUEUED_LETTERS;
    private static final Pattern ATTACHED_THREAD_NAME = Pattern.compile("Thread-\\d+");
    /** Polls that find a producer mid-offer before a drive gives up and reports the work as remaining. */
    private static final int SPURIOUS_EMPTY_RETRIES = 100;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BOUND = lookup.findVarHandle(ExecutionLane.class, "boundThread", Thread.class);
            DRIVES = lookup.findVarHandle(ExecutionLane.class, "drives", long.class);
            TURNS = lookup.findVarHandle(ExecutionLane.class, "turns", long.class);
            LAST_WORK_DRIVE = lookup.findVarHandle(ExecutionLane.class, "lastWorkDriveNanos", long.class);
            QUEUED_LETTERS = lookup.findVarHandle(ExecutionLane.class, "queuedLetters", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final ActorRuntime runtime;
    final RunQueue queue;
    @SuppressWarnings("unused")
    private volatile Thread boundThread;
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
    // Stall watch, updated by observers under `this`.
    private long observedDrives;
    private long observedAtNanos;
    /** When an observer first saw work queued since the queue was last seen empty; -1 if it is empty. */
    private long workSeenSinceNanos = -1;
    private boolean reportedStalled;

    ExecutionLane(String name, ActorRuntime runtime, RunQueue queue) {
        this.name = name;
        this.runtime = runtime;
        this.queue = queue;
        this.observedAtNanos = runtime.nanoTime();
    }

    public String name() {
        return name;
    }

    /**
     * Lends the calling thread to this lane for at most {@code maxTurns} turns ({@code 0}: until quiescent).
     *
     * @return the status, the turns run, and the letters still queued on the lane ({@link #queuedLetters()})
     */
    public DriveResult drive(int maxTurns) {
        if (maxTurns < 0) {
            return DriveResult.INVALID_ARGUMENT;
        }
        Thread current = Thread.currentThread();
        if (boundThread != current && !bind(current)) {
            return DriveResult.WRONG_THREAD;
        }
        if (driving) {
            return DriveResult.REENTRANT;
        }
        if (runtime.isClosed()) {
            return DriveResult.CLOSED;
        }
        if (queue.depth() == 0) {
            // The common host callback: nothing to do. Count the drive (for the stall watch) and leave.
            DRIVES.setRelease(this, (long) DRIVES.get(this) + 1);
            return DriveResult.NOTHING;
        }
        driving = true;
        int ran = 0;
        long remaining = 0;
        try {
            int spurious = 0;
            while (true) {
                if (maxTurns != 0 && ran >= maxTurns) {
                    remaining = queue.depth();
                    break;
                }
                ActorCell cell = queue.poll();
                if (cell == null) {
                    remaining = queue.depth();
                    if (remaining == 0 || ++spurious > SPURIOUS_EMPTY_RETRIES) {
                        break;
                    }
                    Thread.onSpinWait(); // a sender is between queueing and linking
                    continue;
                }
                ran += cell.runOnce();
            }
        } catch (Throwable unexpected) {
            runtime.internalError("drive of lane " + name, unexpected);
            remaining = queue.depth();
        } finally {
            driving = false;
            DRIVES.setRelease(this, (long) DRIVES.get(this) + 1);
            if (ran > 0) {
                lettersTaken(ran); // each turn took exactly one letter
                TURNS.setRelease(this, (long) TURNS.get(this) + ran);
                LAST_WORK_DRIVE.setRelease(this, runtime.nanoTime());
            }
        }
        remaining = queuedLetters();
        return ran == 0 && remaining == 0 ? DriveResult.NOTHING : new DriveResult(DriveStatus.OK, ran, remaining);
    }

    /** The thread this lane is bound to, or null before its first drive. */
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

    private boolean bind(Thread current) {
        if (!BOUND.compareAndSet(this, (Thread) null, current)) {
            return false;
        }
        if (ATTACHED_THREAD_NAME.matcher(current.getName()).matches()) {
            current.setName("lanehost-lane-" + name);
        }
        return true;
    }

    /**
     * Updates the stall watch: a change in the drive count since the last observation counts as "driven
     * now". Observers (snapshot, metrics, the HOSTED timer thread) call it, so a drive itself never reads
     * the clock unless it ran work.
     */
    synchronized boolean observe(long now) {
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
            runtime.laneStalled(this, now - observedAtNanos);
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
                queuedLetters(), stalled);
    }

    @Override
    public String toString() {
        return "ExecutionLane[" + name + "]";
    }
}
