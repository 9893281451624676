package dev.lanehost.lanes.lane;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.LaneTeardown;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.TeardownAccess;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.mailbox.LaneCounters;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One lane's part in the runtime's close: who tears its actors down (its bound thread in a drive, or the
 * closing thread as a fallback), claimed once, and the latch the closing thread waits on. Step 4 of the
 * drive protocol on {@link ExecutionLane}; steps 3 and 5 of the runtime's close protocol.
 */
public final class LaneClose {
    /** What the runtime does with a lane's actors at its close; the live runtime is the one kind. */
    public interface Actors {
        /** Halts every actor of the lane, queueing each on it for its teardown. */
        void haltActorsOf(Lane lane);

        /** The close's fallback: tears the lane's actors down on the calling thread. */
        void tearDownOnClosingThread(Lane lane);
    }

    private static final TeardownAccess<LaneTeardown> TEARDOWNS = Access.teardowns();

    private static final VarHandle CLAIM;
    /** Teardown after close: nobody else may be offering, so a few thousand pauses cover a preempted sender. */
    private static final int TEARDOWN_SPURIOUS_RETRIES = 10_000;
    private static final int OPEN = 0;
    private static final int BY_LANE_THREAD = 1;
    private static final int BY_CLOSING_THREAD = 2;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CLAIM = lookup.findVarHandle(LaneClose.class, "claim", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Lane lane;
    /** Its counts, with its live actors. */
    private final LaneCounters counters;
    private final Actors actors;
    /** Who tears the lane down, claimed once by CAS. */
    @SuppressWarnings("unused")
    private volatile int claim;
    /** Opened once the lane's teardown after close has finished, on whichever thread did it. */
    private final CountDownLatch tornDown = new CountDownLatch(1);

    /** Which thread drives the lane: whether one ever did. */
    private final LaneBinding binding;
    /** The lane's own close on its bound thread: now, unless a drive is running (it tears down when its turn returns). */
    private final Runnable tearDownIfIdle;

    public LaneClose(Lane lane, Actors actors, LaneBinding binding, Runnable tearDownIfIdle) {
        this.counters = lane.counters();
        this.binding = binding;
        this.tearDownIfIdle = tearDownIfIdle;
        this.lane = lane;
        this.actors = actors;
    }

    /**
     * The bound thread, outside a drive, once the runtime is closed: tear down every actor the close left on
     * the lane, here, once. A lane the closing thread has already claimed is left to it. The caller marks
     * the lane as driving meanwhile, so a hook that drives it gets REENTRANT.
     */
    public void tearDownOnLaneThread() {
        if (!CLAIM.compareAndSet(this, OPEN, BY_LANE_THREAD)) {
            return;
        }
        try {
            // The closing thread may not have halted them yet (this drive came first): halting queues each.
            actors.haltActorsOf(lane);
            int spurious = 0;
            while (counters.liveActors() > 0) {
                ActorCell cell = lane.queue().poll();
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
            RuntimeLog.internalError("teardown of lane " + lane.name(), unexpected);
        } finally {
            tornDown.countDown();
        }
    }

    /**
     * Close, step 1, on the closing thread (every actor already halted): settle what can be settled now.
     *
     * @return the outcome, or null if the lane's bound thread is alive and its host's next drive is awaited
     */
    public LaneTeardown begin(Thread closing) {
        if (claim == BY_LANE_THREAD) {
            return null; // a drive got here first: its teardown is running or done
        }
        if (counters.liveActors() == 0) {
            CLAIM.compareAndSet(this, OPEN, BY_CLOSING_THREAD);
            tornDown.countDown();
            return LaneTeardown.NO_ACTORS;
        }
        Thread bound = lane.boundThread();
        if (bound == closing) {
            tearDownIfIdle.run(); // from inside a turn of this lane, the drive tears down when the turn returns
            return LaneTeardown.CLOSED_ON_LANE_THREAD;
        }
        if (bound == null) {
            return fallBack(binding.everBound() ? LaneTeardown.RELEASED : LaneTeardown.NEVER_BOUND, closing);
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
    public LaneTeardown await(long deadlineNanos, long graceNanos, Thread closing) {
        if (awaitUntil(deadlineNanos)) {
            return finishedOnLaneThread(closing);
        }
        Thread bound = lane.boundThread();
        LaneTeardown why = bound == null ? (binding.everBound() ? LaneTeardown.RELEASED : LaneTeardown.NEVER_BOUND)
                : bound.isAlive() ? LaneTeardown.GRACE_EXPIRED : LaneTeardown.THREAD_ENDED;
        LaneTeardown fell = fallBack(why, closing);
        if (fell != null) {
            return fell;
        }
        // The lane thread claimed the teardown at the last moment: give it one more grace to finish.
        return awaitUntil(System.nanoTime() + graceNanos) ? finishedOnLaneThread(closing)
                : LaneTeardown.UNFINISHED_ON_LANE_THREAD;
    }

    /**
     * The lane thread's teardown has finished. An actor it could not find on the queue (a sender preempted
     * mid-queue for its whole patience) is torn down here rather than leaked, and that is logged.
     */
    private LaneTeardown finishedOnLaneThread(Thread closing) {
        int left = counters.liveActors();
        if (left > 0) {
            RuntimeLog.logSafely(System.Logger.Level.WARNING, "lane '" + lane.name() + "': " + left + " actor(s) the lane"
                    + " thread's teardown did not reach are torn down on the closing thread " + closing.getName());
            actors.tearDownOnClosingThread(lane);
        }
        return LaneTeardown.TORN_DOWN_ON_LANE_THREAD;
    }

    /** True once the teardown finished; false at the deadline or on interrupt (the flag is kept). */
    private boolean awaitUntil(long deadlineNanos) {
        try {
            return tornDown.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return tornDown.getCount() == 0;
        }
    }

    /** Tears the lane down on the closing thread, unless the lane thread claimed it first (then null). */
    private LaneTeardown fallBack(LaneTeardown why, Thread closing) {
        if (!CLAIM.compareAndSet(this, OPEN, BY_CLOSING_THREAD)) {
            return null;
        }
        int live = counters.liveActors();
        RuntimeLog.logSafely(why == LaneTeardown.NEVER_BOUND ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                "lane '" + lane.name() + "': " + live + " actor(s) torn down on the closing thread " + closing.getName()
                        + " #" + closing.threadId() + ", not on a lane thread: " + TEARDOWNS.reason(why));
        try {
            actors.tearDownOnClosingThread(lane);
        } finally {
            tornDown.countDown();
        }
        return why;
    }
}
