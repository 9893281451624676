package dev.lanehost.lanes.runtime;

import dev.lanehost.lanes.CloseReport;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.LaneTeardown;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellTeardown;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.queue.Latches;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The runtime's close, run once, keeping each lane actor's teardown on its lane's thread wherever a host
 * still drives that lane.
 *
 * <h2>Close protocol</h2>
 * <ol>
 *   <li>The runtime is marked closed (by its caller): from then on every drive, bind and release answers
 *       {@link dev.lanehost.lanes.DriveStatus#CLOSED}, after running its lane's pending teardown if it is on the lane's bound
 *       thread. The first caller claims the close; a later caller runs the teardown of lanes bound to its
 *       own thread, then waits for the first to finish and returns its report.</li>
 *   <li>Every lane actor is halted with {@link ExitReason#SHUTDOWN} (each halt queues it on its lane). A lane
 *       thread that begins its teardown before this is done waits for it, so no actor is claimed-but-unqueued when
 *       its lane's teardown looks for it; it waits for nothing else, so a host's drive never waits for the next
 *       step's grace. Then the HOSTED threads stop and are joined (together they get a grace of 5 s to finish the
 *       turns they are in; a blocking actor waiting in {@code receive} is woken by its thread's stop and gets null,
 *       as the runtime is closed; a turn that never returns leaves its daemon thread behind, logged): the workers,
 *       the blocking threads, the placement configuration's threads, then the timer thread, so no timer fires after
 *       this step. Then every other actor is halted.</li>
 *   <li>Each lane settles what it can at once ({@code LaneClose.begin}): no actors left; bound to
 *       the closing thread (torn down here); never bound, released, or bound to a thread that has ended
 *       (torn down here as a fallback). A lane bound to a live thread is awaited.</li>
 *   <li>Normal, pinned, placed and blocking actors are torn down on the closing thread (their threads have
 *       ended), while lane hosts drive. A turn still running (its thread did not stop in its grace) is waited for
 *       until one deadline for all, 1 s; past it, or at once for the closing thread's own turn (close() called
 *       from a turn), the turn's runner tears its actor down when the turn returns.</li>
 *   <li>Awaited lanes are waited for, each on its own latch, until one deadline: the grace after step 3.
 *       A lane whose host has not claimed its teardown by then is torn down on the closing thread.</li>
 *   <li>The report (one outcome per lane) is published and the close is over; the actions registered with
 *       {@link dev.lanehost.lanes.ActorRuntime#whenClosed} run (a host ABI lets go of the runtime there).</li>
 * </ol>
 * Admission stops at step 1: a spawn or lane registration after it throws, and a send that begins after
 * {@link dev.lanehost.lanes.ActorRuntime#isClosed()} has returned true (on its thread, or on one it follows) answers false or
 * {@link dev.lanehost.lanes.Delivery#TERMINATED}, counted nowhere (the closed flag's volatile write and read order them; the check is
 * in {@code ActorCell.admit}). A send already past that check when the flag is set may still be queued; its letter is
 * dropped at the actor's halt and counted in {@link dev.lanehost.lanes.RuntimeMetrics#droppedMessages()}. No runtime thread is left behind once the close returns (tested), unless a turn
 * never returned.
 */
public final class RuntimeClose {

    private final long laneGraceNanos;
    /** How long close waits for turns still running (their threads did not stop), for all of a step's actors together. */
    private final long turnGraceNanos;
    private final ActorRegistry actors;
    private final AtomicBoolean claimed = new AtomicBoolean();
    /** Opened when the close that won {@link #claimed} has finished. */
    private final CountDownLatch finished = new CountDownLatch(1);
    /**
     * Opened once every lane actor is halted (step 2, before the HOSTED threads stop). A lane thread's teardown waits
     * for it: a drive can arrive while the closing thread is in the middle of halting one of the lane's actors,
     * claimed but not yet queued, and the teardown must not finish without it.
     */
    private final CountDownLatch laneActorsHalted = new CountDownLatch(1);
    private volatile CloseReport report;
    /** Run once the close has finished: whoever holds the runtime for its hosts lets go there. */
    private final Queue<Runnable> closeActions = new ConcurrentLinkedQueue<>();

    public RuntimeClose(long laneGraceNanos, long turnGraceNanos, ActorRegistry actors) {
        this.laneGraceNanos = laneGraceNanos;
        this.turnGraceNanos = turnGraceNanos;
        this.actors = actors;
    }

    /** Steps 1-6; the runtime is already marked closed. */
    public CloseReport run(Collection<Lane> lanes, Runnable stopThreads) {
        Thread current = Thread.currentThread();
        if (!claimed.compareAndSet(false, true)) {
            for (Lane lane : lanes) {
                if (lane.boundThread() == current) {
                    lane.bind(); // closed, on the lane's own thread: runs its pending teardown here
                }
            }
            Latches.awaitUninterruptibly(finished);
            runCloseActions();
            return report;
        }
        Map<String, LaneTeardown> outcomes = new TreeMap<>();
        try {
            try {
                for (ActorCell cell : actors.inIdOrder()) {
                    if (cell.lane != null) {
                        cell.halt(ExitReason.SHUTDOWN);
                    }
                }
            } finally {
                laneActorsHalted.countDown();
            }
            stopThreads.run();
            List<ActorCell> all = actors.inIdOrder();
            for (ActorCell cell : all) {
                cell.halt(ExitReason.SHUTDOWN); // no-op for the lane actors, halted above
            }
            List<Lane> awaited = new ArrayList<>();
            List<Lane> ordered = new ArrayList<>(lanes);
            ordered.sort(Comparator.comparing(Lane::name));
            for (Lane lane : ordered) {
                LaneTeardown settled = lane.close().begin(current);
                if (settled == null) {
                    awaited.add(lane);
                } else {
                    outcomes.put(lane.name(), settled);
                }
            }
            long deadline = System.nanoTime() + laneGraceNanos; // lane hosts drive meanwhile
            // From the halts: a turn the halts themselves unblock (a lane's teardown it waited on) still ends in time
            // to be torn down here, before close returns.
            long turnDeadline = System.nanoTime() + turnGraceNanos;
            for (ActorCell cell : all) {
                if (cell.lane == null) {
                    CellTeardown.onClose(cell, turnDeadline);
                }
            }
            for (Lane lane : awaited) {
                outcomes.put(lane.name(), lane.close().await(deadline, laneGraceNanos, current));
            }
        } finally {
            report = new CloseReport(outcomes);
            finished.countDown();
        }
        runCloseActions();
        return report;
    }

    /** Runs {@code action} once the close has finished, or now if it has. */
    public void whenClosed(Runnable action) {
        closeActions.add(action);
        if (report != null) {
            runCloseActions();
        }
    }

    /** Each action once, on whichever thread finds it; one that throws is logged and the others still run. */
    private void runCloseActions() {
        Runnable action;
        while ((action = closeActions.poll()) != null) {
            try {
                action.run();
            } catch (Throwable failure) {
                RuntimeLog.internalError("a close action", failure);
            }
        }
    }

    /** Close: halts every actor of one lane (each halt queues the actor on the lane for its teardown). */
    void haltActorsOf(Lane lane) {
        for (ActorCell cell : actors.inIdOrder()) {
            if (cell.lane == lane.counters()) {
                cell.halt(ExitReason.SHUTDOWN);
            }
        }
        Latches.awaitUninterruptibly(laneActorsHalted); // a lane actor the closing thread claimed is queued once this returns
    }

    /** Close's fallback for one lane, on the closing thread: its actors, in id order. */
    void tearDownOnClosingThread(Lane lane) {
        long turnDeadline = System.nanoTime() + turnGraceNanos;
        for (ActorCell cell : actors.inIdOrder()) {
            if (cell.lane == lane.counters()) {
                cell.halt(ExitReason.SHUTDOWN); // no-op but for an actor spawned as the close began
                CellTeardown.onClose(cell, turnDeadline);
            }
        }
    }

    /** The report, or null until the close has finished. */
    public CloseReport report() {
        return report;
    }
}
