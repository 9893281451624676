package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The runnable actors of one placement (a lane, or the normal queue), in four priority bands served
 * strictly in order: band 0 first, band 3 only when 0–2 are empty. READY actors go to band 0 and SLOW
 * ones (re-queued after a budget pause) to band 3; bands 1 and 2 exist for states to come.
 *
 * <p>Any thread may {@link #offer}; one consumer at a time (the lane's driver, the draining host thread,
 * or a worker) may {@link #poll}. An actor is queued at most once at a time (its scheduled flag
 * guarantees it), which is what lets the cell itself be the queue node. Each band's queue counts its
 * own offers (on the producers' cache line) and polls (on the consumer's), so {@link #depth} costs a
 * sender nothing beyond its offer and shares no counter between senders and the consumer.
 *
 * <p>In the simulated profile the queue is <em>seeded</em>: instead of FIFO within a band, {@link #poll}
 * serves a band in rounds — the actors queued when a round begins, each once, in an order the seed chooses
 * (a {@link SchedulePolicy} may record or force each pick) — and an actor queued meanwhile waits for the next
 * round. So a ready actor runs within two rounds: the seed decides the order, never whether it runs.
 */
final class RunQueue {
    /** Elements of {@link #pooled}: written by the consumer (release), read by observers (acquire). */
    private static final VarHandle POOLED = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle RUNNING;
    private static final VarHandle TURNS_STARTED;
    private static final VarHandle CONSUMER_LOCK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUNNING = lookup.findVarHandle(RunQueue.class, "running", ActorCell.class);
            TURNS_STARTED = lookup.findVarHandle(RunQueue.class, "turnsStarted", long.class);
            CONSUMER_LOCK = lookup.findVarHandle(RunQueue.class, "consumerLock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    static final int BANDS = 4;
    static final int READY_BAND = 0;
    static final int SLOW_BAND = 3;

    private final String name;
    @SuppressWarnings("unchecked")
    private final MpscQueue<ActorCell>[] bands = new MpscQueue[BANDS];
    /**
     * Raised by every offer once its actor is in a band: a lane's empty drive reads this one word instead of
     * the four bands (see {@link WorkFlag} for how the consumer lowers it). A lane's queue raises the lane.
     */
    final WorkFlag work;
    private final SchedulePolicy policy;
    /**
     * The actors a steal into this queue moves, strung together to be offered at once. Used only by this queue's
     * worker, the one thread that steals into it.
     */
    private final MpscQueue.Chain<ActorCell> arrivals = new MpscQueue.Chain<>();
    /** Called after each offer, e.g. to unpark an idle worker; null for lanes (their host drives them). */
    private final Runnable waker;
    /** Simulated profile only: actors moved out of the MPSC bands, awaiting a seeded pick. Consumer-owned. */
    private final List<List<ActorCell>> pools;
    /** Simulated profile only (else null): the size of each pool, for observers on other threads. Consumer-written. */
    private final long[] pooled;
    /** The actor whose turn the consumer is running, or null: the turn slot the budget watch reads. */
    @SuppressWarnings("unused")
    private volatile ActorCell running;
    /**
     * SINGLE_THREAD: the runtime clock when the consumer's last turn ended (the after-the-turn budget reads it
     * there), so the next turn of the same drive starts at it instead of reading the clock again; 0 outside a
     * drive. Consumer only.
     */
    private long turnEndClock;
    /**
     * The one thread that runs this queue's turns, if it is fixed (a worker's queues): the budget watch reads its
     * CPU time. Null for a lane's queue (the lane's bound thread runs it) and where no watch looks.
     */
    private volatile Thread consumer;
    /** Turns the consumer has started, so the budget watch can tell a busy queue from an idle one. */
    @SuppressWarnings("unused")
    private volatile long turnsStarted;
    /**
     * A worker's shared queue has several consumers (its worker and thieves), one at a time: each poll takes
     * this lock for the poll alone ({@link #pollShared()}), never for the turn that follows.
     */
    @SuppressWarnings("unused")
    private volatile int consumerLock;

    RunQueue(String name, SchedulePolicy policy, Runnable waker, WorkFlag work) {
        this.name = name;
        this.work = work;
        this.policy = policy;
        this.waker = waker;
        for (int band = 0; band < BANDS; band++) {
            bands[band] = new MpscQueue<>();
        }
        if (policy != null) {
            pools = new ArrayList<>(BANDS);
            for (int band = 0; band < BANDS; band++) {
                pools.add(new ArrayList<>());
            }
        } else {
            pools = null;
        }
        pooled = policy == null ? null : new long[BANDS];
    }

    String name() {
        return name;
    }

    /** Queues an actor in a band. Any thread. */
    void offer(ActorCell cell, int band) {
        bands[band].offer(cell); // counts the offer on the band's producer line: senders share no counter with the consumer
        if (waker != null) { // a worker's queue
            work.raiseAtOnce(); // after the offer's exchange: the flag's handshake needs the node in first
            waker.run();
        } else {
            work.raise();
        }
    }

    /**
     * The consumer puts back the actor whose turn it just ran (it has more letters): as {@link #offer}, without
     * waking anyone, since the consumer polls again right away.
     */
    void requeue(ActorCell cell, int band) {
        bands[band].offer(cell);
        work.raise();
    }

    /** The next actor to run, or null if none is ready now. Consumer only. */
    ActorCell poll() {
        if (pools != null) {
            return pollSeeded();
        }
        for (int band = 0; band < BANDS; band++) {
            ActorCell cell = bands[band].poll();
            if (cell != null) {
                return cell;
            }
        }
        return null;
    }

    /**
     * As {@link #poll()}, for a queue with several consumers (a worker and thieves): null also when another
     * consumer is polling it right now (the caller looks elsewhere and comes back). A queue whose work flag is
     * down is empty without a CAS: an idle thief looks at one word of its victim, written only when the queue
     * goes from idle to busy. A consumer that finds the queue empty lowers the flag, then looks once more (the
     * flag's handshake, as a lane's drive does it), under the consumer lock.
     */
    ActorCell pollShared() {
        if (!work.isRaised() || !CONSUMER_LOCK.compareAndSet(this, 0, 1)) {
            return null;
        }
        try {
            return pollLocked();
        } finally {
            CONSUMER_LOCK.setRelease(this, 0);
        }
    }

    /** Under the consumer lock: the next actor, or null, lowering the work flag (with its handshake) if empty. */
    private ActorCell pollLocked() {
        ActorCell cell = poll();
        if (cell == null) {
            work.lower();
            // Then look again, at the tails too: a producer's exchange of a tail is fenced before its read of
            // the flag, but its link is not, so a node it is still linking must keep the flag raised here.
            cell = poll();
            if (cell != null || !isEmptyForConsumer()) {
                work.raise();
            }
        }
        return cell;
    }

    /**
     * A thief takes the next actor of this shared queue to run now, and moves up to half of the rest of its ready
     * band (at most {@code max} in all) to its own queue {@code into}, each homed there, under one hold of the consumer
     * lock. Actors in the slow band stay: asked to yield, they wait behind every ready actor, and moved into the
     * thief's ready band they would run ahead of those that reach the thief later.
     *
     * @return the actor to run, or null
     */
    ActorCell stealInto(RunQueue into, int max) {
        if (!work.isRaised() || !CONSUMER_LOCK.compareAndSet(this, 0, 1)) {
            return null;
        }
        try {
            ActorCell first = pollLocked();
            if (first == null) {
                return null;
            }
            long more = Math.min(max - 1, depth(READY_BAND) / 2);
            MpscQueue.Chain<ActorCell> moving = into.arrivals;
            for (long moved = 0; moved < more; moved++) {
                ActorCell cell = bands[READY_BAND].poll();
                if (cell == null) {
                    break;
                }
                cell.home = into; // it was queued here, so nobody else holds it now
                moving.add(cell);
            }
            if (moving.size() > 0) {
                into.bands[READY_BAND].offerAll(moving); // one exchange for the lot, not two atomic steps each
                into.work.raise();
            }
            return first;
        } finally {
            CONSUMER_LOCK.setRelease(this, 0);
        }
    }

    /** True if an offer may have queued an actor since a consumer last found this queue empty. Any thread. */
    boolean mayHaveWork() {
        return work.isRaised();
    }

    /** Actors queued in a band now; exact when quiescent, racy but never negative otherwise. Any thread. */
    long depth(int band) {
        long queued = bands[band].size();
        return pooled == null ? queued : queued + (long) POOLED.getAcquire(pooled, band);
    }

    /**
     * True if no actor is queued or being queued in any band. The consumer only (it reads each band's
     * head): the one thread that drains this queue, as a lane's bound thread does.
     */
    boolean isEmptyForConsumer() {
        if (pooled != null) {
            return depth() == 0; // SIMULATED also holds actors in its seeded pools
        }
        for (MpscQueue<ActorCell> band : bands) {
            if (!band.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Actors queued in all bands. */
    long depth() {
        long total = 0;
        for (int band = 0; band < BANDS; band++) {
            total += depth(band);
        }
        return total;
    }

    private ActorCell pollSeeded() {
        for (int band = 0; band < BANDS; band++) {
            List<ActorCell> pool = pools.get(band);
            if (pool.isEmpty()) { // a new round: what is queued now, picked in a seeded order before anything queued later
                for (ActorCell cell; (cell = bands[band].poll()) != null; ) {
                    pool.add(cell);
                }
            }
            POOLED.setRelease(pooled, band, (long) pool.size());
            if (!pool.isEmpty()) {
                int index = policy.choose(name, pool);
                ActorCell chosen = pool.get(index);
                // Swap-remove keeps the pick O(1); the pool's order is itself a function of the seed.
                pool.set(index, pool.get(pool.size() - 1));
                pool.remove(pool.size() - 1);
                POOLED.setRelease(pooled, band, (long) pool.size());
                return chosen;
            }
        }
        return null;
    }

    /** How the simulated profile chooses among ready actors: a seeded pick, optionally recorded or replayed. */
    interface SchedulePolicy {
        /** The index in {@code ready} (never empty) of the actor to run next on queue {@code queue}. */
        int choose(String queue, List<ActorCell> ready);
    }

    /** A seeded choice; used when nothing is being replayed. */
    static int seededChoice(RandomGenerator random, List<ActorCell> ready) {
        return ready.size() == 1 ? 0 : random.nextInt(ready.size());
    }

    // ---------------------------------------------------------------- the turn slot

    /** The consumer starts a turn of {@code cell}. Release stores: no fence on the turn path. */
    void turnStarting(ActorCell cell) {
        TURNS_STARTED.setOpaque(this, (long) TURNS_STARTED.get(this) + 1);
        RUNNING.setRelease(this, cell);
    }

    /** The consumer's turn has returned. */
    void turnEnded() {
        RUNNING.setRelease(this, null);
    }

    /** The clock as the last turn of this drive ended, once: 0 if there is none (the turn reads the clock itself). */
    long takeTurnEndClock() {
        long now = turnEndClock;
        turnEndClock = 0;
        return now;
    }

    /** The after-the-turn budget read the clock as a turn ended: the next turn of this drive starts there. */
    void turnEndedAt(long now) {
        turnEndClock = now;
    }

    /** A drive is over: the next turn reads the clock. */
    void forgetTurnEndClock() {
        turnEndClock = 0;
    }

    /** The thread that runs every turn of this queue: set once, before it runs any. */
    void consumedBy(Thread thread) {
        consumer = thread;
    }

    /** The thread that runs this queue's turns, or null if no one thread does. Any thread. */
    Thread consumer() {
        return consumer;
    }

    /** The actor whose turn is running now, or null. Any thread. */
    ActorCell running() {
        return (ActorCell) RUNNING.getAcquire(this);
    }

    /** Turns started on this queue so far. Any thread. */
    long turnsStarted() {
        return (long) TURNS_STARTED.getOpaque(this);
    }
}
