package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscNode;
import dev.lanehost.lanes.internal.MpscQueue;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One actor: its mailbox, scheduling state, resources and behaviour. The cell is also the run-queue node
 * (it is queued at most once at a time) and the {@link ActorContext} its behaviour sees.
 *
 * <h2>Scheduling protocol</h2>
 * <ol>
 *   <li>A sender appends a letter to the mailbox, then sets {@code scheduled} 0→1 by CAS; the winner
 *       queues the cell on its home run queue. So a cell is queued at most once.</li>
 *   <li>The run queue's consumer (lane driver, host drain, worker) polls the cell and calls
 *       {@link #runOnce()}, which takes the turn lock, runs one letter as one turn, and releases it. The
 *       hand-off through the run queue orders one turn before the next, whichever thread runs it.</li>
 *   <li>Afterwards: letters left → queue again; none → store {@code scheduled = 0}, then re-check the
 *       mailbox (and a pending halt) and, if something arrived, win the CAS back and queue again. The
 *       store-then-recheck against the sender's append-then-CAS means no wakeup is lost.</li>
 * </ol>
 *
 * <h2>Halt protocol</h2>
 * <ol>
 *   <li>Any thread claims the halt by CAS on {@code exitReason} (only the first wins), removes the actor
 *       from the registry, and schedules the cell.</li>
 *   <li>The cell's own placement, at its next {@link #runOnce()}, tears down under the turn lock:
 *       {@code stopped} → letters → signals → timers → parks → arena → notify monitors and links. So
 *       teardown, like every turn, runs on the actor's placement (a lane actor's on its lane thread).</li>
 *   <li>A letter that slips in after teardown (a send racing the claim) schedules the cell once more and
 *       is released there.</li>
 * </ol>
 *
 * <p>The turn lock is taken by the runner and, when runtime close tears an actor down on the closing
 * thread, by that thread. Neither ever waits for the other inside a user hook: a runner that finds it taken
 * hands the cell back ({@link #runOnce()}). Observers never take it: the mailbox depth is an O(1) count.
 */
final class ActorCell extends MpscNode implements ActorContext {
    private static final VarHandle SCHEDULED;
    private static final VarHandle TURN_LOCK;
    private static final VarHandle EXIT_REASON;
    private static final VarHandle TURNS;
    private static final VarHandle TURN_STARTED;
    private static final VarHandle LETTERS_OFFERED;
    private static final VarHandle LETTERS_TAKEN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SCHEDULED = lookup.findVarHandle(ActorCell.class, "scheduled", int.class);
            TURN_LOCK = lookup.findVarHandle(ActorCell.class, "turnLock", int.class);
            EXIT_REASON = lookup.findVarHandle(ActorCell.class, "exitReason", ExitReason.class);
            TURNS = lookup.findVarHandle(ActorCell.class, "turns", long.class);
            TURN_STARTED = lookup.findVarHandle(ActorCell.class, "turnStartedNanos", long.class);
            LETTERS_OFFERED = lookup.findVarHandle(ActorCell.class, "lettersOffered", long.class);
            LETTERS_TAKEN = lookup.findVarHandle(ActorCell.class, "lettersTaken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long id;
    final String name;
    final Placement placement;
    final ActorRuntime runtime;
    final RunQueue home;
    /** The lane this actor lives on, or null for the normal placement. */
    final ExecutionLane lane;
    final ActorRef ref;
    private final MpscQueue<Letter> mailbox = new MpscQueue<>();

    private Supplier<? extends Behavior> factory;
    private Behavior behavior;

    @SuppressWarnings("unused")
    private volatile int scheduled;
    @SuppressWarnings("unused")
    private volatile int turnLock;
    volatile ExitReason exitReason;
    /** Set once the halt teardown has run; read by the runner and observers. */
    private volatile boolean tornDown;
    private volatile boolean started;
    // Written by the running turn with release (no fence on the hot path), read by observers with acquire.
    /** Turns completed. */
    @SuppressWarnings("unused")
    private long turns;
    /** Runtime clock at the start of the current turn, 0 between turns. */
    @SuppressWarnings("unused")
    private long turnStartedNanos;
    // The mailbox depth without walking it: senders add (atomically), the holder of the turn lock takes.
    @SuppressWarnings("unused")
    private long lettersOffered;
    @SuppressWarnings("unused")
    private long lettersTaken;
    /** The thread running the current turn, so context calls from elsewhere are refused. */
    private Thread turnThread;
    private Arena arena;

    // Resources and watchers, guarded by `this`; every critical section is a few field updates.
    private final List<Signal> signals = new ArrayList<>(0);
    private final Set<Timer> timers = new LinkedHashSet<>();
    private final Set<Park<?>> parks = new LinkedHashSet<>();
    private final List<ActorCell> monitors = new ArrayList<>(0);
    private final Set<ActorCell> links = new LinkedHashSet<>();
    /** Set (under `this`) once monitors and links have been notified; later monitors are told at once. */
    private boolean notified;

    ActorCell(long id, String name, Placement placement, ActorRuntime runtime, RunQueue home, ExecutionLane lane,
              Supplier<? extends Behavior> factory) {
        this.id = id;
        this.name = name;
        this.placement = placement;
        this.runtime = runtime;
        this.home = home;
        this.lane = lane;
        this.factory = factory;
        this.ref = new ActorRef(this);
        // The start is the first letter: it runs on the actor's placement, never on the spawner's thread.
        countOffered();
        mailbox.offer(new Letter(Letter.START, null, null));
    }

    // ---------------------------------------------------------------- any thread

    /** Appends a letter and makes the actor runnable. @return false if the actor has halted */
    boolean deliver(Letter letter) {
        if (exitReason != null) {
            return false;
        }
        countOffered();
        mailbox.offer(letter);
        schedule();
        if (runtime.isClosed()) {
            releaseLateLettersAfterClose(); // the actor may have been torn down between our check and our offer
        }
        return true;
    }

    /**
     * Once the runtime has closed, nothing runs this cell again, so a letter that lands after its teardown
     * would wait forever: whoever sees one (the sender after its offer, a lock holder after letting go)
     * releases it here — a task gets {@link TurnTask#abandoned()}, a delivered park its release hook. The
     * offer and the teardown's {@code tornDown} write are both volatile, so at least one side sees the other;
     * a sender that finds the lock taken leaves the letter to the holder, which calls this after letting go.
     */
    void releaseLateLettersAfterClose() {
        while (tornDown && !mailbox.isEmpty()) {
            if (!TURN_LOCK.compareAndSet(this, 0, 1)) {
                return;
            }
            try {
                releaseLateLetters();
            } finally {
                TURN_LOCK.setVolatile(this, 0);
            }
        }
    }

    /** Before the offer, so a count never runs behind what a consumer can take. */
    private void countOffered() {
        LETTERS_OFFERED.getAndAdd(this, 1L);
        if (lane != null) {
            lane.letterQueued();
        }
    }

    /** Letters in the mailbox: O(1), exact when nobody is sending, never negative. Any thread. */
    long mailboxDepth() {
        return Math.max(0, (long) LETTERS_OFFERED.getVolatile(this) - (long) LETTERS_TAKEN.getAcquire(this));
    }

    /** Holder of the turn lock only. */
    private Letter takeLetter() {
        Letter letter = mailbox.poll();
        if (letter != null) {
            LETTERS_TAKEN.setRelease(this, (long) LETTERS_TAKEN.get(this) + 1);
        }
        return letter;
    }

    void schedule() {
        if (SCHEDULED.compareAndSet(this, 0, 1)) {
            home.offer(this, RunQueue.READY_BAND);
        }
    }

    /** Claims the halt (once), takes the actor out of the registry, and schedules its teardown. */
    boolean halt(ExitReason reason) {
        if (!EXIT_REASON.compareAndSet(this, (ExitReason) null, reason)) {
            return false;
        }
        runtime.unregister(this);
        runtime.observer().haltStep(ref, HaltStep.REGISTRY);
        schedule();
        return true;
    }

    // ---------------------------------------------------------------- the run queue's consumer

    /**
     * Runs at most one letter as one turn (or the halt teardown), then requeues the cell if it has more
     * to do. Called only by the consumer that polled the cell from its run queue.
     *
     * <p>If the turn lock is taken, the closing thread is tearing this actor down (runtime close fell back
     * to it) and may be inside a user hook for as long as the hook likes: the runner does not wait, it
     * hands the cell back ({@link #handOff()}) and its drive goes on.
     *
     * @return the number of turns run, which is the number of letters taken by turns: 0 or 1
     */
    int runOnce() {
        int ran = 0;
        if (!TURN_LOCK.compareAndSet(this, 0, 1)) {
            handOff();
            return 0;
        }
        try {
            if (exitReason == null) {
                Letter letter = takeLetter();
                if (letter != null) {
                    runTurn(letter);
                    ran = 1;
                }
            }
            if (exitReason != null) {
                finishHalt();
            }
        } finally {
            TURN_LOCK.setRelease(this, 0);
        }
        if (runtime.isClosed()) {
            releaseLateLettersAfterClose();
        }
        if (!mailbox.isEmpty()) {
            home.offer(this, RunQueue.READY_BAND); // still ours: scheduled stays 1
        } else {
            scheduled = 0;
            if ((!mailbox.isEmpty() || (exitReason != null && !tornDown)) && SCHEDULED.compareAndSet(this, 0, 1)) {
                home.offer(this, RunQueue.READY_BAND);
            }
        }
        return ran;
    }

    private void runTurn(Letter letter) {
        turnThread = Thread.currentThread();
        TURN_STARTED.setRelease(this, runtime.nanoTime());
        try {
            switch (letter.kind) {
                case Letter.START -> start();
                case Letter.MESSAGE, Letter.DOWN -> behavior.receive(this, letter.payload);
                case Letter.TIMER -> ((Timer) letter.payload).run(this);
                case Letter.SIGNAL -> ((Signal) letter.payload).run(this, (byte[]) letter.detail);
                case Letter.PARK -> ((Park<?>) letter.payload).consume(this);
                case Letter.TASK -> ((TurnTask) letter.payload).run(this);
                case Letter.EXIT -> halt(new ExitReason.Linked((ActorRef) letter.payload, (ExitReason) letter.detail));
                default -> throw new IllegalStateException("unknown letter kind " + letter.kind);
            }
        } catch (Throwable failure) {
            halt(new ExitReason.Failed(failure));
            runtime.turnFailed(this, failure); // a turn runs at most once after its actor halts, so once per actor
        } finally {
            turnThread = null;
            TURN_STARTED.setRelease(this, 0L);
            TURNS.setRelease(this, (long) TURNS.get(this) + 1);
        }
    }

    private void start() throws Exception {
        Supplier<? extends Behavior> make = factory;
        factory = null;
        Behavior made = make.get();
        if (made == null) {
            throw new NullPointerException("the behaviour factory of actor " + name + " returned null");
        }
        behavior = made;
        started = true;
        behavior.started(this);
    }

    private void teardown() {
        tornDown = true;
        ExitReason reason = exitReason;
        RuntimeObserver observer = runtime.observer();
        if (behavior != null) {
            turnThread = Thread.currentThread();
            try {
                behavior.stopped(this, reason);
            } catch (Throwable e) {
                runtime.hookFailed(this, "stopped", e);
            } finally {
                turnThread = null;
            }
        }
        observer.haltStep(ref, HaltStep.STOPPED);

        releaseLateLetters();
        observer.haltStep(ref, HaltStep.LETTERS);

        List<Signal> attachedSignals;
        List<Timer> armedTimers;
        List<Park<?>> pendingParks;
        synchronized (this) {
            attachedSignals = new ArrayList<>(signals);
            signals.clear();
            armedTimers = new ArrayList<>(timers);
            timers.clear();
            pendingParks = new ArrayList<>(parks);
            parks.clear();
        }
        for (Signal signal : attachedSignals) {
            signal.cancelForHalt(); // runs the release hook, outside our lock
        }
        observer.haltStep(ref, HaltStep.SIGNALS);
        for (Timer timer : armedTimers) {
            timer.cancelForHalt();
        }
        observer.haltStep(ref, HaltStep.TIMERS);
        for (Park<?> park : pendingParks) {
            park.cancelForHalt(); // release hooks outside any lock, so they may stop or join producers
        }
        observer.haltStep(ref, HaltStep.PARKS);
        if (arena != null) {
            arena.close();
            arena = null;
            runtime.arenaClosed();
        }
        observer.haltStep(ref, HaltStep.ARENA);
        behavior = null;

        List<ActorCell> watchers;
        List<ActorCell> linked;
        synchronized (this) {
            notified = true;
            watchers = new ArrayList<>(monitors);
            monitors.clear();
            linked = new ArrayList<>(links);
            links.clear();
        }
        Down down = new Down(ref, reason);
        for (ActorCell watcher : watchers) {
            watcher.deliver(new Letter(Letter.DOWN, down, null));
        }
        for (ActorCell peer : linked) {
            peer.unlinkFrom(this);
            if (reason.isAbnormal()) {
                peer.deliver(new Letter(Letter.EXIT, ref, reason));
            }
        }
        observer.haltStep(ref, HaltStep.NOTIFIED);
        runtime.actorTornDown(this);
    }

    /**
     * The runner found the turn lock taken: give up the schedule (so the lock holder, which re-checks after
     * letting go, requeues the cell if work is left), then re-check ourselves in case it already let go.
     * Volatile store then volatile load on both sides, so at least one of them sees the other.
     */
    private void handOff() {
        scheduled = 0;
        if ((int) TURN_LOCK.getVolatile(this) == 0 && hasWork() && SCHEDULED.compareAndSet(this, 0, 1)) {
            home.offer(this, RunQueue.READY_BAND);
        }
    }

    private boolean hasWork() {
        return !mailbox.isEmpty() || (exitReason != null && !tornDown);
    }

    /** Drops letters nobody will handle; a delivered park still gets its release hook, a task its abandonment. */
    private void releaseLateLetters() {
        long dropped = 0;
        try {
            for (Letter letter; (letter = takeLetter()) != null; ) {
                dropped++;
                if (letter.kind == Letter.PARK) {
                    ((Park<?>) letter.payload).releaseUnconsumed();
                } else if (letter.kind == Letter.TASK) {
                    try {
                        ((TurnTask) letter.payload).abandoned();
                    } catch (Throwable e) {
                        runtime.hookFailed(this, "TurnTask.abandoned", e);
                    }
                }
            }
        } finally {
            if (dropped > 0 && lane != null) {
                lane.lettersTaken(dropped);
            }
        }
    }

    /**
     * Runtime close, on the closing thread (a normal actor, or a lane actor whose lane thread will not):
     * tear down here, unless a turn is still running after a grace period; then its runner tears down when
     * the turn ends (the halt is already claimed).
     */
    void finishOnClose() {
        if (!tryLockTurn(CLOSE_GRACE_NANOS)) {
            return;
        }
        try {
            finishHalt();
        } finally {
            TURN_LOCK.setVolatile(this, 0); // volatile: pairs with a runner's handOff()
        }
        releaseLateLettersAfterClose();
        if (scheduled == 0 && hasWork() && SCHEDULED.compareAndSet(this, 0, 1)) {
            home.offer(this, RunQueue.READY_BAND); // a runner handed the cell back while we held it
        }
    }

    /** Under the turn lock, once halted: the teardown the first time, then only late letters. */
    private void finishHalt() {
        if (!tornDown) {
            teardown();
        } else {
            releaseLateLetters();
        }
    }

    /** How long close() waits for a running turn before leaving its teardown to the turn's runner. */
    private static final long CLOSE_GRACE_NANOS = 1_000_000_000L;

    private boolean tryLockTurn(long patienceNanos) {
        long deadline = System.nanoTime() + patienceNanos;
        while (!TURN_LOCK.compareAndSet(this, 0, 1)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    // ---------------------------------------------------------------- resources (owner's turn or teardown)

    synchronized void forgetTimer(Timer timer) {
        timers.remove(timer);
    }

    synchronized void forgetSignal(Signal signal) {
        signals.remove(signal);
    }

    synchronized void forgetPark(Park<?> park) {
        parks.remove(park);
    }

    private synchronized void unlinkFrom(ActorCell peer) {
        links.remove(peer);
    }

    // ---------------------------------------------------------------- ActorContext (own turn only)

    @Override
    public ActorRef self() {
        checkInTurn();
        return ref;
    }

    @Override
    public long nanoTime() {
        checkInTurn();
        return runtime.nanoTime();
    }

    @Override
    public ActorRef spawn(String name, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return runtime.spawn(name, factory);
    }

    @Override
    public ActorRef spawnOnLane(String lane, String name, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return runtime.spawnOnLane(lane, name, factory);
    }

    @Override
    public Timer delay(Duration delay, TurnCallback callback) {
        checkInTurn();
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(callback, "callback");
        Timer timer = runtime.newTimer(this, delay, callback);
        synchronized (this) {
            timers.add(timer);
        }
        runtime.arm(timer);
        return timer;
    }

    @Override
    public Signal signal(SignalMode mode, SignalCallback callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(callback, "callback");
        Signal signal = new Signal(this, mode, callback, releaseHook);
        synchronized (this) {
            signals.add(signal);
        }
        runtime.signalCreated();
        return signal;
    }

    @Override
    public <T> Park<T> park(ParkCallback<T> callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(callback, "callback");
        Park<T> park = new Park<>(this, callback, releaseHook);
        synchronized (this) {
            parks.add(park);
        }
        runtime.parkCreated();
        return park;
    }

    @Override
    public void monitor(ActorRef actor) {
        checkInTurn();
        ActorCell target = Objects.requireNonNull(actor, "actor").cell;
        boolean alreadyGone;
        synchronized (target) {
            alreadyGone = target.notified;
            if (!alreadyGone) {
                target.monitors.add(this);
            }
        }
        if (alreadyGone) {
            deliver(new Letter(Letter.DOWN, new Down(actor, target.exitReason), null));
        }
    }

    @Override
    public void link(ActorRef actor) {
        checkInTurn();
        ActorCell peer = Objects.requireNonNull(actor, "actor").cell;
        if (peer == this) {
            return;
        }
        boolean peerGone;
        synchronized (peer) {
            peerGone = peer.notified;
            if (!peerGone) {
                peer.links.add(this);
            }
        }
        if (peerGone) {
            if (peer.exitReason.isAbnormal()) {
                halt(new ExitReason.Linked(actor, peer.exitReason));
            }
            return;
        }
        synchronized (this) {
            links.add(peer);
        }
    }

    @Override
    public void stop() {
        checkInTurn();
        halt(ExitReason.NORMAL);
    }

    @Override
    public Arena arena() {
        checkInTurn();
        if (arena == null) {
            arena = Arena.ofShared();
            runtime.arenaOpened();
        }
        return arena;
    }

    private void checkInTurn() {
        if (turnThread != Thread.currentThread()) {
            throw new IllegalStateException("the context of actor " + id + " (" + name
                    + ") was used outside its own turn, on " + Thread.currentThread().getName());
        }
    }

    // ---------------------------------------------------------------- observation (any thread)

    /**
     * A row for the snapshot, from racy-but-safe scalars: the mailbox depth is a count, not a walk, so an
     * observer never takes the turn lock and never waits on a turn.
     */
    Snapshot.ActorRow snapshot(long now) {
        int depth = (int) Math.min(Integer.MAX_VALUE, mailboxDepth());
        long turnStarted = (long) TURN_STARTED.getAcquire(this);
        Snapshot.ActorState state = exitReason != null ? Snapshot.ActorState.HALTING
                : turnStarted != 0 ? Snapshot.ActorState.RUNNING
                : !started ? Snapshot.ActorState.STARTING
                : scheduled != 0 ? Snapshot.ActorState.READY
                : Snapshot.ActorState.IDLE;
        return new Snapshot.ActorRow(id, name, placement.toString(), state, depth, (long) TURNS.getAcquire(this),
                turnStarted == 0 ? 0 : Math.max(0, now - turnStarted), 0);
    }
}
