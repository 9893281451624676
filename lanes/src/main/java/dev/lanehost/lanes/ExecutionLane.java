package dev.lanehost.lanes;

import dev.lanehost.lanes.lane.Lane;

/**
 * A named run queue that only its host drains, by lending a thread to {@link #drive}. The handle is the
 * only drive capability: whoever holds it may drive, from one thread at a time. The handle hands each call to the
 * lane it stands for, which the runtime keeps and which holds the drive loop.
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
    private final Lane lane;

    ExecutionLane(Lane lane) {
        this.lane = lane;
    }

    /** The name the lane was registered under. */
    public String name() {
        return lane.name();
    }

    /** Drives so far. */
    public long drives() {
        return lane.drives();
    }

    /** Turns run by drives so far. */
    public long turns() {
        return lane.turns();
    }

    /**
     * Letters waiting in the mailboxes of this lane's actors: the lane's backlog, which a host can watch
     * grow. O(1), never negative; exact between drives, and during a drive it still counts the letters that
     * drive has taken so far (the driver settles its count when the drive returns).
     */
    public long queuedLetters() {
        return lane.queuedLetters();
    }

    /** Messages and tasks this lane's actors refused because a mailbox or the lane was full. */
    public long refusedLetters() {
        return lane.refusedLetters();
    }

    /**
     * Lends the calling thread to this lane for at most {@code maxTurns} turns ({@code 0}: until quiescent).
     * Allocates a {@link DriveResult} when the drive ran something; a host's real-time callback uses
     * {@link #drive(int, DriveCounts)}.
     *
     * @return the status, the turns run, and the letters still queued on the lane ({@link #queuedLetters()})
     */
    public DriveResult drive(int maxTurns) {
        long outcome = lane.drive(maxTurns);
        return DriveResult.of(DriveStatus.ofCode(Lane.status(outcome)), Lane.turnsRun(outcome), lane.queuedLetters());
    }

    /**
     * As {@link #drive(int)}, allocating nothing: the turns run and the letters still queued are stored in
     * {@code out}, which the caller reuses from drive to drive (one per thread), or nowhere if {@code out} is
     * null (a caller that needs only the status, as a host passing no counts to {@code lane_drive}).
     *
     * @return the {@link DriveStatus#code()}; {@link DriveStatus#INVALID_ARGUMENT} if {@code maxTurns} is
     *         negative
     */
    public int drive(int maxTurns, DriveCounts out) {
        long outcome = lane.drive(maxTurns);
        if (out != null) {
            out.set(Lane.turnsRun(outcome), lane.queuedLetters());
        }
        return Lane.status(outcome);
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
        return lane.bind();
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
        return lane.release();
    }

    /** Times the lane was bound again after its first binding (a host thread restart, or a release). */
    public long rebinds() {
        return lane.rebinds();
    }

    /**
     * True if the calling thread is the one this lane is bound to. One load and the current thread's
     * identity: for a host entry choosing state the bound thread reuses from drive to drive.
     */
    public boolean isBoundToCurrentThread() {
        return lane.isBoundToCurrentThread();
    }

    /** The thread this lane is bound to, or null before its first drive and after a release. */
    public Thread boundThread() {
        return lane.boundThread();
    }

    /**
     * Work is queued, and for the runtime's stall threshold it has waited with nobody driving the lane.
     * Measured by observation (this call, snapshots, the HOSTED timer thread), so a drive never reads the
     * clock just to be watched.
     */
    public boolean isStalled() {
        return lane.isStalled();
    }

    /** Actors queued now, all bands. */
    public long queued() {
        return lane.queued();
    }


    @Override
    public String toString() {
        return "ExecutionLane[" + lane.name() + "]";
    }
}
