package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.affinity.Topology;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.WorkerStats;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.IdleAccess;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RoamingQueues;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.observe.RuntimeEvents;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.queue.Latches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;

/**
 * HOSTED's workers: N {@link Worker} threads, each with a shared and a pinned run queue, and the rules that
 * place and move normal actors among them; which of them spin or park, and who is woken, is {@link IdleWorkers}.
 *
 * <h2>Where a normal actor runs</h2>
 * <ol>
 *   <li>A normal actor is queued on one worker's shared queue at a time, and its {@code home} names that
 *       queue. A spawn from a worker, or a send from a worker that makes the actor runnable, makes that worker
 *       its home and its next actor to run ({@link Worker#runNext}: what a turn sends runs where its sender's
 *       data is hot, as Go's {@code runnext} and Tokio's LIFO slot do); from any other thread it is queued on
 *       its home, or on a spinning worker, which becomes its home, if its home's worker is not spinning; a spawn
 *       from outside on the next worker in turn.</li>
 *   <li>An idle worker steals: it takes the next actor of another worker's shared queue (under that queue's
 *       consumer lock, which the owner takes for each poll too) and makes its own shared queue the actor's
 *       home. Pinned and lane actors are never in a shared queue, so they are never stolen.</li>
 *   <li>A send that leaves more than one actor queued on a busy worker wakes a parked worker to steal, if no
 *       worker is spinning already; a spinning worker steals by itself. A lone actor waits for the run in
 *       progress, unless the budget watch finds that worker still in the same run at its next look.</li>
 *   <li>A worker whose run leaves the actor's mailbox empty keeps the actor scheduled ({@link KeptActor}), one at a
 *       time: the actor's next letter finds it scheduled and is run by that worker without a queue, a door or a
 *       wake-up. Keeping the next swaps it in: the one before is let go, or runs next if a letter came for it (so a
 *       pair of actors passes letters this way). The worker lets it go before it parks; a snapshot shows it IDLE. It
 *       waits at a door of its own, from which a spinning thief takes it as from any door (rule 2), and the budget
 *       watch takes it if its worker stays in one run (rule 3).</li>
 * </ol>
 */
public final class WorkerPool extends RoamingQueues {
    private static final IdleAccess<IdleStrategy> IDLE = Access.idle();

    /**
     * Actors one steal takes at most: half of what the victim holds, up to this. Taking several under one hold of
     * the victim's consumer lock keeps a thief from contending for it actor by actor (and the owner, which takes the
     * same lock for each poll, from waiting on the thief): fan-out/fan-in ran ~5 % faster at 256 than at 32.
     */
    public static final int MAX_STEAL = 256;

    final IdleStrategy idleStrategy;
    /** Turns of one actor a worker runs before it moves on to the next ({@link dev.lanehost.lanes.RuntimeBuilder#turnsPerRun}). */
    final int turnsPerRun;
    private final Worker[] workers;
    private final AffinityPolicy affinityPolicy;
    private final Affinity affinity;
    private final Topology topology;
    /** Thread name to what applying the affinity policy to it did; written once per thread at its start. */
    private final Map<String, AffinityResult> affinityResults = new ConcurrentHashMap<>();
    /** Opened once every worker has applied its affinity, so results are there to read. */
    private final CountDownLatch placed;
    /** Which workers spin and which are parked, and who is woken: the pool's idle coordination. */
    public final IdleWorkers idle;
    private final AtomicInteger nextSpawn = new AtomicInteger();
    /** {@link #rescueStuckWork()}'s memory of each worker's slot, kept actor, runs and queue at its last look. Timer thread only. */
    private final ActorCell[] slotSeen;
    private final ActorCell[] keptSeen;
    private final long[] slotRunsSeen;
    private final boolean[] queuedSeen;
    private volatile boolean running = true;

    /** Places each worker on its own thread at its start: the affinity policy, or a placement's CPUs. */
    private final ObjIntConsumer<Thread> placer;
    /** The priority policy each worker applies to itself at its start, or null for none. */
    private final ThreadPriorities priorities;

    /** HOSTED's workers: {@code lanehost-worker-<i>}, each placed by the affinity policy as thread i. */
    public WorkerPool(int size, IdleStrategy idleStrategy, AffinityPolicy affinityPolicy, Affinity affinity, Topology topology) {
        this(size, index -> "lanehost-worker-" + index, idleStrategy, 1, affinityPolicy, affinity, topology, null, null);
    }

    /** A pool whose workers are named by {@code names} and placed by {@code placer} (null: the affinity policy). */
    public WorkerPool(int size, IntFunction<String> names, IdleStrategy idleStrategy, int turnsPerRun, AffinityPolicy affinityPolicy,
               Affinity affinity, Topology topology, ObjIntConsumer<Thread> placer, ThreadPriorities priorities) {
        this.idleStrategy = idleStrategy;
        this.turnsPerRun = turnsPerRun;
        this.affinityPolicy = affinityPolicy;
        this.affinity = affinity;
        this.topology = topology;
        this.placer = placer != null ? placer : this::place;
        this.priorities = priorities;
        this.placed = new CountDownLatch(size);
        this.workers = new Worker[size];
        this.idle = new IdleWorkers(workers, IDLE.parks(idleStrategy));
        this.slotSeen = new ActorCell[size];
        this.keptSeen = new ActorCell[size];
        this.slotRunsSeen = new long[size];
        this.queuedSeen = new boolean[size];
        for (int index = 0; index < size; index++) {
            workers[index] = new Worker(this, index, names.apply(index));
        }
    }

    public int size() {
        return workers.length;
    }

    public Worker worker(int index) {
        return workers[index];
    }

    boolean isRunning() {
        return running;
    }

    // ---------------------------------------------------------------- placement

    /** The shared queue a new normal actor starts on: the spawning worker's, or the next in turn. */
    public RunQueue spawnQueue() {
        Worker current = currentWorker();
        if (current != null) {
            return current.shared;
        }
        return workers[Math.floorMod(nextSpawn.getAndIncrement(), workers.length)].shared;
    }

    /**
     * A normal actor has just become runnable (rule 1); only the caller that won its scheduled flag calls this. On a
     * worker it runs next there ({@link Worker#runNext}) and that worker's shared queue becomes its home; from any
     * other thread it is handed to a spinning worker through its door ({@link HandOff}), or else queued on its home.
     */
    @Override
    public void scheduled(ActorCell cell) {
        Worker current = currentWorker();
        if (current == null) {
            Worker spinner = idle.spinnerFor(cell.home);
            if (spinner != null) {
                cell.moveHome(spinner.shared); // it holds the scheduled flag: nobody else moves it now
                if (spinner.handOff.handIn(cell)) {
                    return;
                }
            }
            cell.home.offer(cell, RunQueue.READY_BAND);
        } else {
            cell.moveHome(current.shared);
            current.runNext(cell);
        }
    }

    /** The worker running on the calling thread, or null. */
    public Worker currentWorker() {
        return Thread.currentThread() instanceof Worker worker && worker.pool == this ? worker : null;
    }

    public boolean isWorker(Thread thread) {
        return thread instanceof Worker worker && worker.pool == this;
    }

    // ---------------------------------------------------------------- stealing and waking

    /** Rule 2: the next actor of another worker's shared queue, now homed on the thief's, or null. */
    ActorCell steal(Worker thief) {
        int size = workers.length;
        for (int tried = 0; tried < size; tried++) {
            Worker victim = workers[thief.nextVictim(size)];
            if (victim == thief || !victim.shared.mayHaveWork()) {
                continue;
            }
            ActorCell cell = victim.shared.stealInto(thief.shared, MAX_STEAL);
            thief.stealAttempted(cell != null);
            if (cell != null) {
                cell.home = thief.shared; // it was in the victim's queue, so nobody else holds it now
                RuntimeEvents.steal(thief, victim, cell.id, cell.name);
                return cell;
            }
        }
        return null;
    }

    /**
     * Rule 2 for a slot and a door: an idle worker that finds no queued actor to steal takes one that has waited in
     * another worker's {@code next} slot while that worker stayed in one run ({@link Thief#fromSlotOf}), or at
     * another spinning worker's door while that worker's thread did not run ({@link Thief#handedInAt}), or a kept
     * actor with a letter at its own door ({@link Thief#keptAt}), or null.
     */
    ActorCell stealNext(Worker thief) {
        for (Worker victim : workers) {
            if (victim == thief) {
                continue;
            }
            ActorCell cell = thief.asThief.fromSlotOf(victim);
            if (cell == null) {
                cell = thief.asThief.handedInAt(victim);
            }
            if (cell == null && (cell = thief.asThief.keptAt(victim)) != null) {
                cell.moveHome(thief.shared); // its door held it, so nobody else holds it now
            }
            if (cell != null) {
                thief.stealAttempted(true);
                RuntimeEvents.steal(thief, victim, cell.id, cell.name);
                return cell;
            }
        }
        return null;
    }

    /**
     * The budget watch's look at the workers (timer thread): a worker that has stayed in one run since the last look
     * while an actor waited in its slot or, with a letter, at its kept actor's door (the same one), or in its shared
     * queue has stuck work, and a parked worker is woken to steal it, unless one is spinning already. The slot's (or
     * the door's) actor is first moved to the worker's shared queue, where a thief takes it at its first look: a thief
     * takes from a slot only after many looks of its spin, and a short spin (an idle strategy that parks at once, or
     * an adaptive one shrunk to its least) would leave the actor in the slot until the run ends. Reads only words
     * written when a run ends, a slot or a door changes, a letter comes or a queue is offered to or polled.
     */
    public void rescueStuckWork() {
        if (workers.length < 2) {
            return;
        }
        for (int i = 0; i < workers.length; i++) {
            Worker worker = workers[i];
            ActorCell cell = worker.nextInSlot();
            long runs = worker.runs();
            boolean stuckInSlot = runs == slotRunsSeen[i] && cell != null && cell == slotSeen[i];
            if (stuckInSlot && worker.takeFromSlot(cell)) {
                worker.shared.offer(cell, RunQueue.READY_BAND); // its home already: the slot's owner queued it
                cell = null;
            }
            ActorCell waiting = worker.kept.waitingWithWork();
            boolean stuckKept = runs == slotRunsSeen[i] && waiting != null && waiting == keptSeen[i];
            if (stuckKept && worker.kept.take(waiting)) {
                waiting.moveHome(worker.shared); // its door held it, so nobody else holds it now
                worker.shared.offer(waiting, RunQueue.READY_BAND);
                waiting = null;
            }
            boolean queued = worker.shared.depth() > 0;
            if (runs == slotRunsSeen[i] && (stuckInSlot || stuckKept || (queued && queuedSeen[i]))) {
                idle.wakeAParkedWorker(worker);
            }
            slotSeen[i] = cell;
            keptSeen[i] = waiting;
            slotRunsSeen[i] = runs;
            queuedSeen[i] = queued;
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /** Starts every worker and returns once each has applied its affinity. */
    public void start() {
        for (Worker worker : workers) {
            worker.start();
        }
        Latches.awaitUninterruptibly(placed);
    }

    /** A worker, first thing on its thread: apply the affinity policy and record what it did. */
    void placed(Worker worker) {
        try {
            placer.accept(worker, worker.index);
            if (priorities != null) {
                priorities.apply(worker);
            }
        } finally {
            placed.countDown();
        }
    }

    /**
     * Applies the affinity policy to the calling thread, {@code thread}, as the policy's thread number
     * {@code index}, and records what it did under the thread's name. Never throws.
     */
    public void place(Thread thread, int index) {
        record(thread, () -> affinityPolicy.applyToCurrentThread(index, topology, affinity));
    }

    /** Records what placing {@code thread} did (on that thread), or logs why it failed. Never throws. */
    public void record(Thread thread, Supplier<AffinityResult> placing) {
        try {
            AffinityResult result = placing.get();
            affinityResults.put(thread.getName(), result);
            RuntimeEvents.affinityResult(thread, result);
        } catch (Throwable e) {
            RuntimeLog.internalError("applying the affinity policy to " + thread.getName(), e);
        }
    }

    /** Stops taking turns: each worker ends after the turn it is in. */
    public void stop() {
        running = false;
        for (Worker worker : workers) {
            LockSupport.unpark(worker);
        }
    }

    /** After {@link #stop()} and its grace: workers still alive (in a turn that never returns) let their kept actors go. */
    public void letKeptActorsGo() {
        for (Worker worker : workers) {
            if (worker.isAlive()) {
                worker.kept.letGoAfterStop();
            }
        }
    }

    public List<Thread> threads() {
        return List.of(workers);
    }

    public Map<String, AffinityResult> affinityResults() {
        return Map.copyOf(affinityResults);
    }

    /** Every run queue of the pool: what the budget watch looks at. */
    public List<RunQueue> queues() {
        List<RunQueue> queues = new ArrayList<>(workers.length * 2);
        for (Worker worker : workers) {
            queues.add(worker.shared);
            queues.add(worker.pinned);
        }
        return List.copyOf(queues);
    }

    /** Actors queued on every worker's shared queue. */
    public long normalQueued() {
        long queued = 0;
        for (Worker worker : workers) {
            queued += worker.shared.depth();
        }
        return queued;
    }

    public List<WorkerStats> stats() {
        List<WorkerStats> stats = new ArrayList<>(workers.length);
        for (Worker worker : workers) {
            stats.add(new WorkerStats(worker.index, worker.getName(), worker.shared.depth(), worker.pinned.depth(),
                    worker.turns(), worker.stealAttempts(), worker.steals()));
        }
        return List.copyOf(stats);
    }
}
