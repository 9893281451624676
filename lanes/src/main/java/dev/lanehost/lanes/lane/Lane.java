package dev.lanehost.lanes.lane;

import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.mailbox.LaneCounters;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.queue.WorkFlag;
import java.util.function.BiFunction;

/**
 * An execution lane: the drive loop, and the parts it keeps — its counts and work flag ({@link LaneCounters}), which
 * thread drives it ({@link LaneBinding}), its part in the runtime's close ({@link LaneClose}) and what observers see
 * ({@link LaneWatch}). Its public handle, {@link dev.lanehost.lanes.ExecutionLane}, documents the drive protocol and
 * hands every call here; the runtime holds lanes by this class.
 */
public final class Lane {
    private static final int DRIVE_OK = DriveStatus.OK.code();
    /** Looks (at the lane's queue, or runs that took no letter) that find a producer mid-offer before a drive gives up and reports the work as remaining. */
    private static final int SPURIOUS_EMPTY_RETRIES = 100;

    private final String name;
    private final RuntimeContext runtime;
    /**
     * The lane's counts and its work flag, in one object: what senders write (the flag, the backlog) and what the
     * drive reads first, one load from the lane.
     */
    private final LaneCounters counters;
    private final RunQueue queue;
    /**
     * False only for the private lane of {@link ActorRuntime#warmUpThread()}: it renames no thread, logs
     * nothing and has no teardown.
     */
    private final boolean registered;
    private final LaneBinding binding;
    /** This lane's part in the runtime's close, and its count of live actors. */
    private final LaneClose close;
    /** What observers see: the stall watch, rebinds to log, the snapshot row. */
    private final LaneWatch watch;
    /** Bound thread only. */
    private boolean driving;
    /**
     * The bound thread as it knows itself: written only by a thread that has just bound the lane (its own
     * identity) or is releasing it (null), so it equals {@link Thread#currentThread()} exactly when the
     * caller is the bound thread: a live bound thread is never displaced, and only it releases. Plain, and
     * read only by a thread comparing it with itself: the drive's fast path checks the binding with this
     * one load instead of going through the {@code LaneBinding}. Other threads ask the binding.
     */
    private Thread driver;

    /** @param queueFor makes the lane's run queue, whose offers raise the lane's work flag: its counters */
    public Lane(String name, RuntimeContext runtime, LaneClose.Actors actors, BiFunction<String, WorkFlag, RunQueue> queueFor,
                boolean registered) {
        this.name = name;
        this.runtime = runtime;
        this.counters = new LaneCounters(runtime.laneCapacity);
        this.queue = queueFor.apply(name, counters);
        this.registered = registered;
        this.binding = new LaneBinding(name, registered, this::queuedLetters);
        this.close = new LaneClose(this, actors, binding, this::tearDownIfIdle);
        this.watch = new LaneWatch(this, binding, runtime);
    }

    public String name() {
        return name;
    }

    /** Drives so far. */
    public long drives() {
        return counters.drives();
    }

    /** Turns run by drives so far. */
    public long turns() {
        return counters.turns();
    }

    /**
     * Letters waiting in the mailboxes of this lane's actors: the lane's backlog, which a host can watch
     * grow. O(1), never negative; exact between drives, and during a drive it still counts the letters that
     * drive has taken so far (the driver settles its count when the drive returns).
     */
    public long queuedLetters() {
        return counters.queuedLetters();
    }

    /** Messages and tasks this lane's actors refused because a mailbox or the lane was full. */
    public long refusedLetters() {
        return counters.refusedLetters();
    }

    /**
     * Lends the calling thread to this lane for at most {@code maxTurns} turns ({@code 0}: until quiescent), allocating
     * nothing.
     *
     * @return the outcome: the turns run and the {@link DriveStatus#code()}, packed ({@link #turnsRun},
     *         {@link #status}); {@link DriveStatus#INVALID_ARGUMENT} if {@code maxTurns} is negative
     */
    public long drive(int maxTurns) {
        // The common host callback — bound to this thread, not nested, open, nothing queued — kept small
        // enough for the JIT to inline into the caller's upcall; everything else takes the full path.
        if (maxTurns >= 0 && driver == Thread.currentThread() && !driving && !runtime.isClosed() && !counters.isRaised()) {
            counters.driveCounted();
            return outcome(0, DRIVE_OK);
        }
        return driveFully(maxTurns);
    }

    /** {@link #drive(int)} off its fast path: binding, refusals, close, and the turn loop. */
    private long driveFully(int maxTurns) {
        if (maxTurns < 0) {
            return outcome(0, DriveStatus.INVALID_ARGUMENT.code());
        }
        Thread current = Thread.currentThread();
        if (binding.boundThread() != current) {
            DriveStatus bound = acquire(current);
            if (bound != DriveStatus.OK) {
                return outcome(0, bound.code());
            }
        }
        if (driving) {
            return outcome(0, DriveStatus.REENTRANT.code());
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread();
            return outcome(0, DriveStatus.CLOSED.code());
        }
        counters.lower(); // then look at the whole queue; every path below raises it again if work is left
        if (queue.isEmptyForConsumer()) {
            // Nothing to do after all (the flag was raised by work an earlier drive took, or the binding or
            // the nesting check sent us here). Count the drive (for the stall watch) and leave.
            counters.driveCounted();
            return outcome(0, DRIVE_OK);
        }
        driving = true;
        counters.driveBegins(current);
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
                // Up to turnsPerRun turns of this actor (within the drive's bound) before it goes behind the others.
                int turns = runtime.laneTurnsPerRun;
                int taken = cell.run(maxTurns == 0 ? turns : Math.min(turns, maxTurns - ran));
                if (taken == 0 && cell.exitReason == null) {
                    // Queued again with no letter taken: its sender is between queueing and linking the letter (or
                    // the closing thread holds its turn lock). Come back to it, but not for as long as that sender
                    // stays off the CPU: that is a spin the host's callback would pay for.
                    if (++spurious > SPURIOUS_EMPTY_RETRIES) {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                spurious = 0;
                ran += taken;
            }
        } catch (Throwable unexpected) {
            RuntimeLog.internalError("drive of lane " + name, unexpected);
        } finally {
            counters.driveEnds(ran);
            driving = false;
            queue.forgetTurnEndClock();
            if (!queue.isEmptyForConsumer()) {
                counters.raise(); // maxTurns reached, or a sender still linking: the next drive must look
            }
            counters.driveCounted();
            if (ran > 0) {
                counters.turnsCounted(ran, runtime.nanoTime());
            }
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread(); // the runtime closed during this drive
            return outcome(ran, DriveStatus.CLOSED.code());
        }
        return outcome(ran, DRIVE_OK);
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
            if (binding.boundThread() == current && !driving) {
                tearDownOnLaneThread();
            }
            return DriveStatus.CLOSED;
        }
        return binding.boundThread() == current ? DriveStatus.OK : acquire(current);
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
        if (binding.boundThread() != current) {
            return runtime.isClosed() ? DriveStatus.CLOSED : DriveStatus.WRONG_THREAD;
        }
        if (driving) {
            return DriveStatus.REENTRANT;
        }
        if (runtime.isClosed()) {
            tearDownOnLaneThread();
            return DriveStatus.CLOSED;
        }
        driver = null; // before the binding lets go: once it has, another thread may bind
        binding.release(current);
        return DriveStatus.OK;
    }

    /**
     * The warm-up's private lane, released by the caller: left bound to {@code ended}, a thread that is not
     * alive, so the next drive rebinds it the way a host's restarted thread rebinds its lane.
     */
    public void leaveBoundToEndedThread(Thread ended) {
        if (registered) {
            throw new IllegalStateException("only the warm-up's private lane may be left bound to a thread that ended");
        }
        binding.leaveBoundTo(ended);
    }

    /** Times the lane was bound again after its first binding (a host thread restart, or a release). */
    public long rebinds() {
        return binding.rebinds();
    }

    /** A drive's outcome in one word, so a drive allocates nothing: the turns it ran above the status code. */
    private static long outcome(int turns, int code) {
        return (long) turns << 32 | (code & 0xFFFF_FFFFL);
    }

    /** The turns a drive ran, from its {@linkplain #drive outcome}. */
    public static int turnsRun(long outcome) {
        return (int) (outcome >>> 32);
    }

    /** The {@link DriveStatus#code()} of a drive, from its {@linkplain #drive outcome}. */
    public static int status(long outcome) {
        return (int) outcome;
    }

    /** Binds the lane to {@code current}, not its bound thread, unless the runtime is closed. */
    private DriveStatus acquire(Thread current) {
        if (runtime.isClosed()) {
            return DriveStatus.CLOSED;
        }
        if (!binding.acquire(current)) {
            return DriveStatus.WRONG_THREAD;
        }
        driver = current;
        return DriveStatus.OK;
    }

    /**
     * True if the calling thread is the one this lane is bound to. One load and the current thread's
     * identity: for a host entry choosing state the bound thread reuses from drive to drive.
     */
    public boolean isBoundToCurrentThread() {
        return driver == Thread.currentThread();
    }

    /** The thread this lane is bound to, or null before its first drive and after a release. */
    public Thread boundThread() {
        return binding.boundThread();
    }

    /**
     * Work is queued, and for the runtime's stall threshold it has waited with nobody driving the lane.
     * Measured by observation (this call, snapshots, the HOSTED timer thread), so a drive never reads the
     * clock just to be watched.
     */
    public boolean isStalled() {
        return watch.observe(runtime.nanoTime());
    }

    /** Actors queued now, all bands. */
    public long queued() {
        return queue.depth();
    }

    /** Its counts and work flag: what its senders and actors write. */
    public LaneCounters counters() {
        return counters;
    }

    /** Its run queue. */
    public RunQueue queue() {
        return queue;
    }

    /** Its part in the runtime's close. */
    public LaneClose close() {
        return close;
    }

    /** What observers see of it. */
    public LaneWatch watch() {
        return watch;
    }

    // ---------------------------------------------------------------- close

    /** The bound thread, once the runtime is closed: runs the lane's pending teardown here, once. */
    private void tearDownOnLaneThread() {
        if (!registered) {
            return;
        }
        driving = true; // a hook that drives this lane gets REENTRANT
        try {
            close.tearDownOnLaneThread();
        } finally {
            driving = false;
        }
    }

    /** Close, on the bound thread: tear down now unless a drive is running (it tears down when its turn returns). */
    private void tearDownIfIdle() {
        if (!driving) {
            tearDownOnLaneThread();
        }
    }

    @Override
    public String toString() {
        return "lane(" + name + ")";
    }
}
