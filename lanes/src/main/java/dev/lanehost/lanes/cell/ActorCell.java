package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Delivery;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.HaltStep;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnTask;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.RefAccess;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.mailbox.LaneCounters;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.mailbox.Mailbox;
import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.resource.ActorSignal;
import dev.lanehost.lanes.seam.Addressee;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.seam.ResourceOwner;
import dev.lanehost.lanes.time.ActorTimer;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One actor's scheduling core: scheduling and the halt, over the exit reason in {@link CellState}; its run step (turn
 * lock, turns, requeue) is {@link CellRun}. The
 * cell is also the run-queue node (it is queued at most once at a time); its parts are the
 * {@link Mailbox}, the {@link Turns} that run its letters (and whose context its behaviour sees), its {@link ActorResources} and its
 * {@link Watchers}.
 *
 * <h2>Scheduling protocol</h2>
 * The scheduled flag is the mailbox's idle mark, in the same word as its producers' position
 * ({@link dev.lanehost.lanes.queue.MpscChunkQueue}, "The consumer's idle mark").
 * <ol>
 *   <li>A cell starts scheduled, held by its spawner, which queues it for its start letter.</li>
 *   <li>A sender's CAS that queues a letter also clears the idle mark; the sender that finds it set queues the cell
 *       on its home run queue. A halt clears it without a letter ({@link #schedule()}). So a cell is queued at most
 *       once.</li>
 *   <li>The run queue's consumer (lane driver, host drain, worker) polls the cell and calls
 *       {@link #runOnce()}, which takes the turn lock, runs one letter as one turn, and releases it. The
 *       hand-off through the run queue orders one turn before the next, whichever thread runs it.</li>
 *   <li>Afterwards: letters left → queue again; none → set the idle mark by a CAS that fails if a letter is queued
 *       or being queued (then queue again), and re-check a pending halt. An offer and the mark are CASes on one word,
 *       so one of them sees the other: no wake-up is lost.</li>
 * </ol>
 *
 * <h2>Halt protocol</h2>
 * <ol>
 *   <li>Any thread claims the halt by CAS on {@code exitReason} (only the first wins), removes the actor
 *       from the registry, and schedules the cell.</li>
 *   <li>The cell's own placement, at its next {@link #runOnce()}, tears down under the turn lock:
 *       {@code stopped} → letters → signals → timers → parks → arena ({@link ActorResources}) → notify
 *       monitors and links ({@link Watchers}). So
 *       teardown, like every turn, runs on the actor's placement (a lane actor's on its lane thread).</li>
 *   <li>A letter that slips in after teardown (a send racing the claim) schedules the cell once more and
 *       is released there. Both in {@link CellTeardown}.</li>
 * </ol>
 *
 * <p>The turn lock (the mailbox's consumer lock) is taken by the runner and, when runtime close tears an actor down on the closing
 * thread, by that thread. Neither ever waits for the other inside a user hook: a runner that finds it taken
 * hands the cell back ({@link #runOnce()}). Observers never take it: the mailbox depth is an O(1) count.
 */
public final class ActorCell extends CellState implements Addressee, ResourceOwner<ActorTimer, ActorSignal, ActorPark<?>> {
    private static final RefAccess<ActorRef, Addressee> REFS = Access.refs();

    public final long id;
    public final String name;
    public final Placement placement;
    public final RuntimeContext runtime;
    /**
     * The run queue this actor is queued on, or was last: fixed for lane and pinned actors; for a normal
     * actor in a worker pool, moved by whoever queues it (the pool's placement rules, {@link RoamingQueues}) while it
     * holds the scheduled flag, so a plain field.
     */
    public RunQueue home;
    /** The queues a normal HOSTED actor roams among (the worker pool's), or null (lanes, pinned, other profiles). */
    private final RoamingQueues roaming;
    /** The lane this actor lives on, or null for the normal placement. */
    public final LaneCounters lane;
    public final ActorRef ref;
    public final Mailbox mailbox;
    public final Turns context;
    public final ActorResources resources;
    public final Watchers watchers = new Watchers();

    /** Set once the halt teardown has run ({@link CellTeardown}); read by the runner and observers. */
    volatile boolean tornDown;
    /** Exempt from the turn budget while set (e.g. a debugger holds it): {@link ActorRef#freeze()}. */
    private volatile boolean frozen;
    /** Letters this mailbox holds before it refuses messages and tasks. */
    final long mailboxCapacity;
    /** HOSTED: the budget watch looks for this actor's turns in its run queue's turn slot. */
    final boolean watched;
    /** Spawned on the blocking threads: exempt from turn budgets, and may block in {@link dev.lanehost.lanes.turn.TurnContext#receive}. */
    public final boolean blocking;
    /** A blocking actor's thread while it waits in {@code receive}; a delivery unparks it. */
    public volatile Thread receiver;
    /** What the actor was spawned with: a restart spawns its successor from them. */
    public final SpawnOptions options;
    public final Supplier<? extends Behavior> factory;
    /** This actor's life: one more each time its supervisor hydrates it. Runner writes, any thread reads. */
    private volatile int incarnation;

    public ActorCell(long id, String name, Placement placement, RuntimeContext runtime, RunQueue home, RoamingQueues roaming,
              LaneCounters lane, BudgetLimits budget, long mailboxCapacity, SpawnOptions options,
              Supplier<? extends Behavior> factory) {
        this.id = id;
        this.name = name;
        this.placement = placement;
        this.runtime = runtime;
        this.home = home;
        this.roaming = roaming;
        this.lane = lane;
        this.ref = REFS.newRef(this);
        this.mailbox = new Mailbox(lane);
        this.context = runtime.turnsOf(this, factory, budget);
        this.resources = new ActorResources(runtime.counters(), runtime.heldArenas());
        this.mailboxCapacity = mailboxCapacity;
        this.options = options;
        this.factory = factory;
        this.blocking = placement == Placement.BLOCKING;
        this.watched = runtime.budgetClock == RuntimeContext.BudgetClock.WATCH && !blocking;
        // The start is the first letter: it runs on the actor's placement, never on the spawner's thread.
        mailbox.offer(new Letter.Start());
    }

    // ---------------------------------------------------------------- any thread

    /** Appends a letter and makes the actor runnable. @return false if the actor has halted */
    public boolean deliver(Letter letter) {
        return CellAdmission.deliver(this, letter);
    }

    /** Makes the actor runnable without a letter (a halt, a teardown left to run), unless it is already. */
    void schedule() {
        if (claimSchedule()) {
            enqueue();
        }
    }

    /**
     * Queues the actor, whose scheduled flag the caller holds: a sender whose letter found it idle, a claim, or its
     * spawner, which holds a new cell from its construction and queues it once for its start letter, whatever letters
     * came meanwhile.
     */
    public void enqueue() {
        if (roaming == null) {
            home.offer(this, RunQueue.READY_BAND);
        } else {
            roaming.scheduled(this);
        }
    }

    /**
     * Makes {@code queue} the actor's home, by its scheduled flag's holder. Stored only if it changes: the cell's
     * line is read by every sender, and a store that changes nothing would still take the line from their cores.
     */
    public void moveHome(RunQueue queue) {
        if (home != queue) {
            home = queue;
        }
    }

    /** Idle → scheduled without a letter: true for the one caller that must queue the actor. Any thread. */
    boolean claimSchedule() {
        return mailbox.claimSchedule();
    }

    /** True unless the actor is idle: queued, or being run. Any thread (racy). */
    public boolean isScheduled() {
        return mailbox.isScheduled();
    }

    /** Claims the halt (once), takes the actor out of the registry, and schedules its teardown. */
    @Override
    public boolean halt(ExitReason reason) {
        if (!claimExit(reason)) {
            return false;
        }
        runtime.halted(this);
        runtime.observer().haltStep(ref, HaltStep.REGISTRY);
        schedule();
        Thread waiting = receiver;
        if (waiting != null) {
            LockSupport.unpark(waiting); // a blocking actor waiting in receive: its turn ends, then its teardown runs
        }
        return true;
    }

    // ---------------------------------------------------------------- the handles' side (any thread)

    @Override
    public long id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public Delivery offer(Object message) {
        return CellAdmission.admit(this, new Letter.Message(message));
    }

    @Override
    public Delivery offerTask(TurnTask task) {
        return CellAdmission.offerTask(this, task);
    }

    @Override
    public boolean isRunBy(Thread thread) {
        return runtime.isRunnerOf(this, thread);
    }

    @Override
    public ExitReason exitReason() {
        return exitReason;
    }

    @Override
    public int incarnation() {
        return incarnation;
    }

    @Override
    public void setFrozen(boolean frozen) {
        this.frozen = frozen;
    }

    @Override
    public boolean isFrozen() {
        return frozen || blocking;
    }

    @Override
    public boolean timerDue(ActorTimer timer) {
        return deliver(timer.letter());
    }

    @Override
    public boolean signalFired(ActorSignal signal, byte[] payload) {
        return deliver(new Letter.SignalFired(signal, payload));
    }

    @Override
    public boolean parkCompleted(ActorPark<?> park) {
        return deliver(new Letter.ParkCompleted(park));
    }

    @Override
    public void forgetTimer(ActorTimer timer) {
        resources.forget(timer);
    }

    @Override
    public void forgetSignal(ActorSignal signal) {
        resources.forget(signal);
    }

    @Override
    public void forgetPark(ActorPark<?> park) {
        resources.forget(park);
    }

    @Override
    public void ended(LiveCounters.Kind kind) {
        runtime.counters().ended(kind);
    }

    // ---------------------------------------------------------------- faults (the runner, under the turn lock)

    /** A turn of this actor faulted (threw, or ran out of budget): see {@link Supervision}. */
    public void faulted(ExitReason fault, Consumer<String> log) {
        Supervision.faulted(this, fault, log);
    }

    /** A hydration: a new life begins; what the former one's resources deliver from now on is dropped. */
    void nextIncarnation() {
        incarnation++;
    }

    // ---------------------------------------------------------------- the run queue's consumer

    /** {@link #run(int)} of one turn: lanes, drains and blocking threads run an actor one letter at a time. */
    public int runOnce() {
        return CellRun.run(this, 1);
    }

    /** Up to {@code maxTurns} turns, by the consumer that polled the cell ({@link CellRun}). @return the turns run */
    public int run(int maxTurns) {
        return CellRun.run(this, maxTurns);
    }

    /** True for a normal HOSTED actor, which roams among the workers' shared queues; false for one pinned to its queue. */
    public boolean roams() {
        return roaming != null;
    }

    /** Letters, a teardown, or a hydration waiting: the cell must be queued. */
    public boolean hasWork() {
        return !mailbox.isEmpty() || hasWorkBesideLetters();
    }

    /**
     * {@link #hasWork()} for the holder of the turn lock, which keeps the actor scheduled (a worker's kept actor): a
     * letter stored at the mailbox's head, not the senders' position. The holder, looking again and again, then reads the
     * slot a letter lands in, as a queue's consumer does, and a sender's claim of its place takes no line from the
     * holder's core (nor the holder's look from the sender's). A letter claimed but not yet stored reads as none: the
     * holder looks again, or lets the actor go ({@link CellRun#release}), whose look sees the claim. It changes nothing,
     * so a worker that may have lost the actor to a thief a moment ago may look too: its answer is then only a hint.
     */
    public boolean hasWorkForHolder() {
        return mailbox.peek() != null || hasWorkBesideLetters();
    }

    /** A teardown or a hydration waiting. */
    private boolean hasWorkBesideLetters() {
        return (exitReason != null && !tornDown) || (exitReason == null && context.isHydrating());
    }

    // ---------------------------------------------------------------- observation (any thread)

    /** "actor 7 'mixer' on lane(audio)", for log lines: the runtime's own words, nothing of the user's. */
    @Override
    public String describe() {
        return "actor " + id + " '" + name + "' on " + placement;
    }
}
