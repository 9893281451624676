package dev.lanehost.lanes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread of the HOSTED {@link WorkerPool} and its two run queues: {@code shared}, the normal actors it
 * runs now (its own and any thief's to take), and {@code pinned}, the actors pinned to it for life (nobody
 * else's). It serves the two in turn, one turn each, then steals, then idles by its pool's
 * {@link IdleStrategy}.
 *
 * <h2>Park protocol</h2>
 * <ol>
 *   <li>Out of idle rounds, the worker announces {@code parked} (volatile), then looks once more at its own
 *       queues and every worker's shared queue, and parks only if all are empty.</li>
 *   <li>A sender offers first, then reads {@code parked} of the worker whose queue it offered to and
 *       unparks it if set (or, if that worker is busy, wakes a parked one to steal). Both sides write then
 *       read volatiles, so one of them sees the other: no wake-up is lost.</li>
 * </ol>
 */
final class Worker extends Thread {
    private static final VarHandle TURNS;
    private static final VarHandle STEAL_ATTEMPTS;
    private static final VarHandle STEALS;
    private static final VarHandle WAKE_UPS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TURNS = lookup.findVarHandle(Worker.class, "turns", long.class);
            STEAL_ATTEMPTS = lookup.findVarHandle(Worker.class, "stealAttempts", long.class);
            STEALS = lookup.findVarHandle(Worker.class, "steals", long.class);
            WAKE_UPS = lookup.findVarHandle(Worker.class, "wakeUps", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    final WorkerPool pool;
    final RunQueue shared;
    final RunQueue pinned;
    /** Set while the worker parks (step 1 of the park protocol); senders read it after their offer. */
    volatile boolean parked;
    /** Set while the worker spins or yields, idle: it steals by itself, so a sender need wake nobody. */
    volatile boolean spinning;
    /** Which queue this worker looks at first next time: they alternate, so neither starves the other. */
    private boolean pinnedFirst;
    /** Where the next steal starts looking, so thieves spread over victims. */
    private int nextVictim;
    // Written by this worker (opaque), read by observers.
    @SuppressWarnings("unused")
    private long turns;
    @SuppressWarnings("unused")
    private long stealAttempts;
    @SuppressWarnings("unused")
    private long steals;
    /** Times a sender unparked this worker. */
    @SuppressWarnings("unused")
    private long wakeUps;

    Worker(WorkerPool pool, int index, String name) {
        super(name);
        setDaemon(true);
        this.pool = pool;
        this.index = index;
        this.shared = new RunQueue(getName(), null, this::offered, new WorkFlag());
        this.pinned = new RunQueue(getName() + "-pinned", null, this::offered, new WorkFlag());
        this.nextVictim = index + 1;
    }

    @Override
    public void run() {
        pool.placed(this);
        IdleStrategy idle = pool.idleStrategy;
        SpinBudget budget = idle.newSpinBudget(); // null: a fixed count
        int idleRounds = 0;
        long idleSince = 0;
        while (pool.isRunning()) {
            ActorCell cell = pollOwn();
            if (cell == null) {
                cell = pool.steal(this);
            }
            if (cell != null) {
                if (idleRounds > 0) {
                    spinning = false;
                    idleRounds = 0;
                }
                int ran = cell.run(pool.turnsPerRun);
                TURNS.setOpaque(this, (long) TURNS.get(this) + ran);
                continue;
            }
            if (idleRounds == 0) {
                spinning = true;
                if (budget != null) {
                    idleSince = System.nanoTime();
                }
            }
            if (idleRounds < (budget != null ? budget.rounds() : idle.roundsBeforePark())) {
                if (idleRounds++ < idle.spins()) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
                continue;
            }
            spinning = false;
            idleRounds = 0;
            if (budget == null) {
                park();
            } else {
                long parkedAt = System.nanoTime();
                park();
                budget.parked(parkedAt - idleSince, System.nanoTime() - parkedAt);
            }
        }
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
            pool.parking(-1);
        }
    }

    /**
     * Announces {@code parked}, then looks at every queue it could take work from. The caller clears
     * {@code parked} (and the pool's count) when it stops waiting.
     *
     * @return true if nothing was queued: the worker may park
     */
    boolean announceParking() {
        parked = true;
        pool.parking(1);
        return pool.isRunning() && !hasOwnWork() && !pool.hasStealableWork();
    }

    boolean hasOwnWork() {
        return shared.depth() > 0 || pinned.depth() > 0;
    }

    /** After an offer to one of this worker's queues (park protocol, step 2). Any thread. */
    private void offered() {
        if (parked) {
            WAKE_UPS.setOpaque(this, (long) WAKE_UPS.get(this) + 1); // racy between senders: a metric, not a count
            LockSupport.unpark(this);
        } else {
            pool.offeredToBusyWorker(this);
        }
    }

    /** The next worker to try to steal from, rotating. */
    int nextVictim(int workers) {
        int victim = nextVictim % workers;
        nextVictim = victim + 1;
        return victim;
    }

    void stealAttempted(boolean succeeded) {
        STEAL_ATTEMPTS.setOpaque(this, (long) STEAL_ATTEMPTS.get(this) + 1);
        if (succeeded) {
            STEALS.setOpaque(this, (long) STEALS.get(this) + 1);
        }
    }

    long turns() {
        return (long) TURNS.getOpaque(this);
    }

    long stealAttempts() {
        return (long) STEAL_ATTEMPTS.getOpaque(this);
    }

    long wakeUps() {
        return (long) WAKE_UPS.getOpaque(this);
    }

    long steals() {
        return (long) STEALS.getOpaque(this);
    }
}
