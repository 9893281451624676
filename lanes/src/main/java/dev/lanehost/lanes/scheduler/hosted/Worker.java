package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.IdleAccess;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.idle.IdleStep;
import dev.lanehost.lanes.idle.SpinBudget;
import dev.lanehost.lanes.queue.WorkFlag;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread of the HOSTED {@link WorkerPool} and its two run queues: {@code shared}, the normal actors it runs now
 * (its own and any thief's to take), and {@code pinned}, the actors pinned to it for life (nobody else's). It serves
 * the two in turn, one run each, then steals, then idles by its pool's {@link IdleStrategy}.
 *
 * <h2>The next slot</h2>
 * A normal actor that one of this worker's turns makes runnable (a send to an idle actor, a spawn) goes into the
 * worker's {@code next} slot instead of a queue, and runs right after the run in progress; an actor already in the slot
 * moves to the back of the shared queue. The slot is a field of the worker: taking from it is one uncontended CAS (no
 * exchange, no count, no consumer lock), and the letter just written is still in this core's cache. It is filled only
 * inside a run (or by a door that closed on an actor, below) and emptied before the worker looks anywhere else, so it
 * is empty whenever the worker steals, idles or parks. {@value #NEXT_RUNS} runs from the slot in a row, and the next
 * one goes to the back of the shared queue instead, so two actors sending to each other cannot keep the queue waiting.
 *
 * <p>A run that goes on long must not strand the slot's actor, so the slot can be stolen, as Go's
 * {@code runnext} can: the owner takes it back by CAS (its one atomic step), and a spinning thief takes it by CAS once
 * it has seen the same actor there, with the owner still in the same run, at {@value #STUCK_SIGHTINGS} of its looks at
 * that owner in a row (it looks at every other worker each round, and counts per owner: a few microseconds of its spin
 * per worker in the pool; a run of short turns ends well before, and the pair of actors stays on one core). A parked
 * worker is not woken for a slot (that would cost a wake-up per message); the budget watch, which looks while turns
 * run, wakes one for a slot it finds stuck ({@link WorkerPool#rescueStuckWork()}).
 *
 * <h2>The door</h2>
 * While it spins idle the worker keeps its {@link HandOff door} open, and a thread off the pool that makes a normal
 * actor runnable hands the actor in there instead of queuing it: the worker reads one line the sender wrote, not the
 * queue's tail, link and work flag. Taking the actor closes the door; stopping to spin closes it too, and an actor
 * handed in just before goes to the {@code next} slot. A spinning thief takes an actor that waits at another
 * spinner's door at {@value #DOOR_SIGHTINGS} of its looks at that spinner in a row: the owner looks at its door every round, so it is
 * likely not running (busy-spin workers and a caller on fewer cores than threads).
 *
 * <h2>Park protocol</h2>
 * <ol>
 *   <li>Out of idle rounds, the worker announces {@code parked} (volatile), then looks once more at its own
 *       queues and every worker's shared queue, and parks only if all are empty.</li>
 *   <li>A sender offers first, then reads {@code parked} of the worker whose queue it offered to and
 *       wakes it if set (or, if that worker is busy, wakes a parked one to steal); waking claims the wake-up by
 *       CAS on {@code parked}, so a burst of sends makes one unpark call, not one each. Both sides write then
 *       read volatiles, so one of them sees the other: no wake-up is lost.</li>
 * </ol>
 *
 * <p>Its fields are laid out by who writes them ({@link WorkerLayout}): a sender reading {@code parked} after its
 * offer never misses on the line this worker writes at every run.
 */
public final class Worker extends WorkerLayout.PadAfterWake {
    private static final IdleAccess<IdleStrategy> IDLE = Access.idle();

    /** Runs from the {@code next} slot in a row before the shared queue is served again. */
    static final int NEXT_RUNS = 16;
    /** Sightings of the same actor in a victim's slot, the victim in the same run, before a thief takes it. */
    public static final int STUCK_SIGHTINGS = 64;
    /**
     * Looks in a row at the same actor waiting at a spinning victim's door before a thief takes it. The victim looks at
     * its door first thing in every round, so an actor still there at a thief's second look waited through about a
     * round of the victim's: it is likely not running. Taking from one that is running is harmless (both were idle).
     * More looks cost a busy-spin pool on two cores ~0.1 µs at p50 and ~2 µs at p99 of the blocking gate call.
     */
    public static final int DOOR_SIGHTINGS = 2;
    public final int index;
    final WorkerPool pool;
    public final RunQueue shared;
    public final RunQueue pinned;
    /** Open while the worker spins: a thread off the pool hands a runnable actor in here ({@link HandOff}). */
    public final HandOff<ActorCell> handOff = new HandOff<>();
    /** This worker as a thief of actors waiting in other workers' slots and at their doors. */
    public final Thief asThief;
    public final KeptActor kept; // the last actor it ran that left its mailbox empty, kept scheduled at a door of its own

    Worker(WorkerPool pool, int index, String name) {
        super(name); // WorkerLayout's chain: the fields other threads read are grouped by who writes them
        setDaemon(true);
        this.pool = pool;
        this.index = index;
        this.shared = new RunQueue(getName(), null, this::offered, new WorkFlag());
        this.pinned = new RunQueue(getName() + "-pinned", null, this::offered, new WorkFlag());
        shared.consumedBy(this); // thieves move an actor into their own queue before they run it
        pinned.consumedBy(this);
        this.nextVictim = index + 1;
        this.asThief = new Thief(this, pool.size());
        this.kept = new KeptActor();
    }

    @Override
    public void run() {
        pool.placed(this);
        IdleStrategy idle = pool.idleStrategy;
        SpinBudget budget = IDLE.newSpinBudget(idle); // null: a fixed count
        int idleRounds = 0;
        long idleSince = 0;
        while (pool.isRunning()) {
            ActorCell cell = kept.takeBack(); // the kept actor, a letter waiting for it: no queue, no slot, no lock
            boolean takenBack = cell != null;
            boolean fromOwnTurns = false; // from the next slot, where this worker's turns put the actors they wake
            if (cell == null) {
                if (idleRounds > 0) {
                    cell = takeHandedIn(); // spinning: the slot is empty, the door open
                } else {
                    fromOwnTurns = (cell = takeNext()) != null;
                }
            }
            if (cell == null) {
                kept.queuesPolled();
                cell = pollOwn();
            }
            if (cell == null) {
                takenBack = (cell = kept.withWork()) != null; // a letter found it still scheduled: no queue, no door
            }
            if (cell == null) {
                cell = pool.steal(this);
            }
            if (cell == null && idleRounds > 0) {
                cell = pool.stealNext(this);
            }
            if (cell != null) {
                if (idleRounds > 0) {
                    stopSpinning(); // an actor handed in meanwhile goes to the next slot
                    idleRounds = 0;
                }
                runEnded(takenBack ? kept.runTakenBack(cell, pool.turnsPerRun) : kept.run(cell, pool.turnsPerRun, fromOwnTurns));
                continue;
            }
            if (idleRounds == 0) {
                if (!pool.idle.claimSpin()) {
                    kept.release();
                    park(); // enough workers spin already: this one waits to be woken
                    continue;
                }
                spinning = true;
                handOff.open();
                if (budget != null) {
                    idleSince = System.nanoTime();
                }
            }
            IdleStep step = IDLE.step(idle, idleRounds, budget != null ? budget.rounds() : IDLE.roundsBeforePark(idle));
            if (step != IdleStep.PARK) {
                if (idleRounds < Integer.MAX_VALUE) {
                    idleRounds++; // busy spin stays here for ever
                }
                if (step == IdleStep.SPIN) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
                continue;
            }
            idleRounds = 0;
            kept.release(); // never parked holding an actor's schedule
            if (stopSpinning()) {
                continue; // an actor was handed in as the door closed: run it instead of parking
            }
            if (budget == null) {
                park();
            } else {
                long parkedAt = System.nanoTime();
                park();
                budget.parked(parkedAt - idleSince, waited(parkedAt, lvWokenAt(), System.nanoTime()));
            }
        }
        kept.release();
        requeueLeft(handOff.close());
        requeueLeft(takeNext());
    }

    /** The pool stopped with {@code cell} handed in or in the slot: queued where the close can see it. */
    private void requeueLeft(ActorCell cell) {
        if (cell != null) {
            shared.requeue(cell, RunQueue.READY_BAND);
        }
    }

    /**
     * A run of {@code turns} turns has ended: counted for observers, and for thieves and the budget watch to
     * compare. This worker only.
     */
    public void runEnded(int turns) {
        countRun(turns);
    }

    /**
     * How long after {@code parkedAt} work came, for the spin budget: until the sender's wake-up call
     * ({@code wokenAt}) if it came during this park, else until {@code now} (a timed or spurious return, or a look
     * that found work). Not until the thread resumed: a wake-up's own latency (microseconds on a VM) says nothing
     * about how long a spin would have had to last, and counting it made every park look long, so that a budget
     * once shrunk to its least never grew back (each call then paid a wake-up).
     */
    public static long waited(long parkedAt, long wokenAt, long now) {
        return wokenAt - parkedAt >= 0 && now - wokenAt >= 0 ? wokenAt - parkedAt : now - parkedAt;
    }

    /**
     * Closes the door and leaves the spinners. An actor handed in before the door closed goes to the next slot, to
     * run after whatever this worker found instead (the slot is empty while the worker spins).
     *
     * @return true if an actor was handed in
     */
    private boolean stopSpinning() {
        ActorCell handed = handOff.close();
        spinning = false;
        pool.idle.spinEnded();
        if (handed == null) {
            return false;
        }
        countHandOff();
        soNext(handed);
        return true;
    }

    /** An actor handed in at the door (which taking it closes), or null. This worker only, while it spins. */
    private ActorCell takeHandedIn() {
        ActorCell cell = handOff.take();
        if (cell != null) {
            countHandOff();
        }
        return cell;
    }

    /** Actors handed in at this worker's door. Any thread. */
    public long handOffs() {
        return loHandOffs();
    }

    /**
     * A turn on this worker made {@code cell} runnable (it holds its scheduled flag and is homed on {@code shared}):
     * it runs next. An actor the slot held already goes to the back of the shared queue. This worker only.
     */
    public void runNext(ActorCell cell) {
        // Only this worker stores an actor here, so a slot read empty stays empty until the store below.
        ActorCell displaced = lvNext();
        if (displaced != null && casNext(displaced, cell)) {
            shared.offer(displaced, RunQueue.READY_BAND);
        } else {
            soNext(cell); // empty, or a thief has just taken what was there
        }
    }

    /** The slot's actor, unless it has had its runs in a row: then it goes behind the shared queue's. This worker only. */
    public ActorCell takeNext() {
        ActorCell cell = lvNext();
        if (cell == null || !casNext(cell, null)) {
            nextRuns = 0;
            return null; // empty, or a thief took it
        }
        if (++nextRuns <= NEXT_RUNS) {
            return cell;
        }
        nextRuns = 0;
        shared.offer(cell, RunQueue.READY_BAND);
        return null;
    }

    /**
     * Takes {@code cell} out of this worker's slot if it is still there: the budget watch moves an actor stuck there
     * behind a long run to the shared queue. Any thread.
     *
     * @return true if this call took it (nobody else holds it now)
     */
    boolean takeFromSlot(ActorCell cell) {
        return casNext(cell, null);
    }

    /** The actor in this worker's slot now, or null. Any thread (racy). */
    public ActorCell nextInSlot() {
        return lvNext();
    }

    /** Runs finished so far. Any thread. */
    long runs() {
        return loRuns();
    }

    /** One of the two own queues, the other first next time; the shared one under its consumer lock. */
    private ActorCell pollOwn() {
        pinnedFirst = !pinnedFirst;
        ActorCell cell = pinnedFirst ? pinned.poll() : shared.pollShared();
        if (cell == null) {
            cell = pinnedFirst ? shared.pollShared() : pinned.poll();
        }
        return cell;
    }

    /** Park protocol, step 1. */
    private void park() {
        try {
            if (announceParking()) {
                LockSupport.park(pool);
            }
        } finally {
            parked = false;
            pool.idle.parking(-1);
        }
    }

    /**
     * Announces {@code parked}, then looks at every queue it could take work from. The caller clears
     * {@code parked} (and the pool's count) when it stops waiting.
     *
     * @return true if nothing was queued: the worker may park
     */
    public boolean announceParking() {
        parked = true;
        pool.idle.parking(1);
        return pool.isRunning() && !hasOwnWork() && !pool.idle.hasStealableWork();
    }

    boolean hasOwnWork() {
        return shared.depth() > 0 || pinned.depth() > 0;
    }

    /** After an offer to one of this worker's queues (park protocol, step 2). Any thread. */
    private void offered() {
        if (parked) {
            wake(); // false: another sender is waking it already
        } else {
            pool.idle.offeredToBusyWorker(this);
        }
    }

    /**
     * Wakes this parked worker, unless another thread has claimed its wake-up already: the claim lowers
     * {@code parked}, so of many senders that saw it set, one makes the unpark call. Any thread.
     *
     * @return true if this call woke it
     */
    boolean wake() {
        if (!casParked(true, false)) {
            return false;
        }
        countWakeUp(); // racy between wakers: a metric, not a count
        soWokenAt(System.nanoTime());
        LockSupport.unpark(this);
        return true;
    }

    /** The next worker to try to steal from, rotating. */
    int nextVictim(int workers) {
        int victim = nextVictim % workers;
        nextVictim = victim + 1;
        return victim;
    }

    void stealAttempted(boolean succeeded) {
        countStealAttempt(succeeded);
    }

    long turns() {
        return loTurns();
    }

    long stealAttempts() {
        return loStealAttempts();
    }

    public long wakeUps() {
        return loWakeUps();
    }

    long steals() {
        return loSteals();
    }
}
