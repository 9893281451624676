package dev.lanehost.lanes.mailbox;

import dev.lanehost.lanes.queue.WorkFlag;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counts an {@link dev.lanehost.lanes.ExecutionLane} keeps, over its work flag: drives, turns and the last drive that ran work (written by its
 * driver with release), the letters queued on its actors (added by senders, settled by the driver) and the
 * letters it refused. Anyone reads them. The lane holds one in a final field, the counts and the flag together, so a
 * drive reaches them in one load from the lane.
 */
public final class LaneCounters extends WorkFlag {
    private static final VarHandle DRIVES;
    private static final VarHandle TURNS;
    private static final VarHandle LAST_WORK_DRIVE;
    private static final VarHandle QUEUED_LETTERS;
    private static final VarHandle DRIVER_QUEUED;
    private static final VarHandle LIVE_ACTORS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            DRIVES = lookup.findVarHandle(LaneCounters.class, "drives", long.class);
            TURNS = lookup.findVarHandle(LaneCounters.class, "turns", long.class);
            LAST_WORK_DRIVE = lookup.findVarHandle(LaneCounters.class, "lastWorkDriveNanos", long.class);
            QUEUED_LETTERS = lookup.findVarHandle(LaneCounters.class, "queuedLetters", long.class);
            DRIVER_QUEUED = lookup.findVarHandle(LaneCounters.class, "driverQueued", long.class);
            LIVE_ACTORS = lookup.findVarHandle(LaneCounters.class, "liveActors", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Written by the bound thread with release, read by observers with acquire.
    @SuppressWarnings("unused")
    private long drives;
    @SuppressWarnings("unused")
    private long turns;
    @SuppressWarnings("unused")
    private long lastWorkDriveNanos;
    /**
     * Letters in the mailboxes of this lane's actors. Senders other than the driving thread add one each
     * (atomically); the driver settles its own sends and the letters its turns took once per drive, and a teardown
     * takes the letters it dropped.
     */
    @SuppressWarnings("unused")
    private volatile long queuedLetters;
    /**
     * The thread inside a drive of this lane, or null. Written by the bound thread only; another thread may read a
     * stale value, but never itself, so {@code driver == Thread.currentThread()} is exact on every thread.
     */
    private Thread driver;
    /**
     * Letters the driving thread queued on this lane's actors during its drive (an actor sending itself the next
     * message, or another actor of the lane): counted here with plain stores instead of an atomic add on
     * {@link #queuedLetters} each, and settled into it with the letters the drive took, once, when the drive returns.
     * Written by the driver with opaque stores, read by others with opaque loads.
     */
    @SuppressWarnings("unused")
    private long driverQueued;
    /** Actors placed on the lane and not yet torn down: the lane's close waits for none to be left. */
    @SuppressWarnings("unused")
    private volatile int liveActors;
    /** Letters this lane's actors may hold together before they refuse messages and tasks. */
    private final long capacity;
    /** Messages and tasks this lane's actors refused for a full mailbox or lane. */
    private final LongAdder refusedLetters = new LongAdder();

    public LaneCounters(long capacity) {
        this.capacity = capacity;
    }

    public void actorSpawned() {
        LIVE_ACTORS.getAndAdd(this, 1);
    }

    public void actorTornDown() {
        LIVE_ACTORS.getAndAdd(this, -1);
    }

    public int liveActors() {
        return liveActors;
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
     * Letters waiting in the mailboxes of this lane's actors: the lane's backlog, which a host can watch
     * grow. O(1), never negative; exact between drives, and during a drive it still counts the letters that
     * drive has taken so far (the driver settles its count when the drive returns).
     */
    public long queuedLetters() {
        return Math.max(0, (long) QUEUED_LETTERS.getVolatile(this) + (long) DRIVER_QUEUED.getOpaque(this));
    }

    /** Messages and tasks this lane's actors refused because a mailbox or the lane was full. */
    public long refusedLetters() {
        return refusedLetters.sum();
    }

    /** The bound thread: one more drive. */
    public final void driveCounted() {
        DRIVES.setRelease(this, (long) DRIVES.get(this) + 1);
    }

    /** The bound thread, as its drive begins to run turns: its sends to this lane are counted as the drive's own. */
    public final void driveBegins(Thread current) {
        driver = current;
    }

    /**
     * The bound thread, as its drive returns: the letters its turns took ({@code ran}, one each) and the letters it
     * queued on this lane meanwhile go into the backlog in one step. Added before the drive's own count is cleared, so
     * an observer in between sees the backlog too large for an instant, never too small (admission errs on refusing).
     */
    public final void driveEnds(int ran) {
        driver = null;
        long queued = (long) DRIVER_QUEUED.get(this);
        if (queued != ran) {
            QUEUED_LETTERS.getAndAdd(this, queued - ran);
        }
        if (queued != 0) {
            DRIVER_QUEUED.setOpaque(this, 0L);
        }
    }

    /** The bound thread, after a drive that ran {@code ran > 0} turns. */
    public final void turnsCounted(int ran, long now) {
        TURNS.setRelease(this, (long) TURNS.get(this) + ran);
        LAST_WORK_DRIVE.setRelease(this, now);
    }

    /** When a drive last ran work, or 0 if none has. */
    public final long lastWorkDriveNanos() {
        return (long) LAST_WORK_DRIVE.getAcquire(this);
    }

    /**
     * Admission: false once the lane's backlog has reached its capacity. During a drive the backlog still
     * counts the letters that drive has taken (it settles when the drive returns), so a lane at its capacity
     * may refuse until then.
     */
    public final boolean hasRoom() {
        return (long) QUEUED_LETTERS.getOpaque(this) + (long) DRIVER_QUEUED.getOpaque(this) < capacity;
    }

    public final void letterRefused() {
        refusedLetters.increment();
    }

    /** A letter queued on one of this lane's actors: the driver's own during its drive, else an atomic add. Any thread. */
    public final void letterQueued() {
        countQueued(1L);
    }

    /** A letter counted by {@link #letterQueued} on this thread that was not queued after all. */
    public final void letterWithdrawn() {
        countQueued(-1L);
    }

    private void countQueued(long letters) {
        if (driver == Thread.currentThread()) {
            DRIVER_QUEUED.setOpaque(this, (long) DRIVER_QUEUED.get(this) + letters);
        } else {
            QUEUED_LETTERS.getAndAdd(this, letters);
        }
    }

    public final void lettersTaken(long letters) {
        QUEUED_LETTERS.getAndAdd(this, -letters);
    }
}
