package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.queue.MpscQueue;
import dev.lanehost.lanes.queue.WorkFlag;
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
 *
 * <h2>Layout</h2>
 * Grouped by who writes, as {@link dev.lanehost.lanes.queue.MpscQueue} is (a superclass's fields come first):
 * <pre>
 *   RunQueuePadBeforeConsumer  128 bytes
 *   RunQueueConsumerFields     running, turnsStarted, turnEndClock, consumerLock  (the consumer, each turn or poll)
 *   RunQueuePadAfterConsumer   128 bytes
 *   RunQueue                   bands, work, waker, ...  (written once; every sender's offer reads them)
 * </pre>
 * So a turn's two stores never invalidate the line a sender on another core reads the bands and the waker from.
 */
public final class RunQueue extends RunQueuePadAfterConsumer {
    /** Elements of {@link #pooled}: written by the consumer (release), read by observers (acquire). */
    private static final VarHandle POOLED = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle RUNNING;
    private static final VarHandle TURNS_STARTED;
    private static final VarHandle CONSUMER_LOCK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUNNING = lookup.findVarHandle(RunQueueConsumerFields.class, "running", ActorCell.class);
            TURNS_STARTED = lookup.findVarHandle(RunQueueConsumerFields.class, "turnsStarted", long.class);
            CONSUMER_LOCK = lookup.findVarHandle(RunQueueConsumerFields.class, "consumerLock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    public static final int BANDS = 4;
    public static final int READY_BAND = 0;
    public static final int SLOW_BAND = 3;

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
    /**
     * The one thread that runs this queue's turns, if it is fixed (a worker's queues): the budget watch reads its
     * CPU time. Null for a lane's queue (the lane's bound thread runs it) and where no watch looks.
     */
    private volatile Thread consumer;

    public RunQueue(String name, SchedulePolicy policy, Runnable waker, WorkFlag work) {
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

    public String name() {
        return name;
    }

    /** Queues an actor in a band. Any thread. */
    public void offer(ActorCell cell, int band) {
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
    public void requeue(ActorCell cell, int band) {
        bands[band].offer(cell);
        work.raise();
    }

    /** The next actor to run, or null if none is ready now. Consumer only. */
    public ActorCell poll() {
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
    public ActorCell pollShared() {
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
    public ActorCell stealInto(RunQueue into, int max) {
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
    public boolean mayHaveWork() {
        return work.isRaised();
    }

    /** Actors queued in a band now; exact when quiescent, racy but never negative otherwise. Any thread. */
    public long depth(int band) {
        long queued = bands[band].size();
        return pooled == null ? queued : queued + (long) POOLED.getAcquire(pooled, band);
    }

    /**
     * True if no actor is queued or being queued in any band. The consumer only (it reads each band's
     * head): the one thread that drains this queue, as a lane's bound thread does.
     */
    public boolean isEmptyForConsumer() {
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
    public long depth() {
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
    public interface SchedulePolicy {
        /** The index in {@code ready} (never empty) of the actor to run next on queue {@code queue}. */
        int choose(String queue, List<ActorCell> ready);
    }

    /** A seeded choice; used when nothing is being replayed. */
    public static int seededChoice(RandomGenerator random, List<ActorCell> ready) {
        return ready.size() == 1 ? 0 : random.nextInt(ready.size());
    }

    // ---------------------------------------------------------------- the turn slot

    /** The consumer starts a turn of {@code cell}. Release stores: no fence on the turn path. */
    public void turnStarting(ActorCell cell) {
        TURNS_STARTED.setOpaque(this, (long) TURNS_STARTED.get(this) + 1);
        RUNNING.setRelease(this, cell);
    }

    /** The consumer's turn has returned. */
    public void turnEnded() {
        RUNNING.setRelease(this, null);
    }

    /** The clock as the last turn of this drive ended, once: 0 if there is none (the turn reads the clock itself). */
    public long takeTurnEndClock() {
        long now = turnEndClock;
        turnEndClock = 0;
        return now;
    }

    /** The after-the-turn budget read the clock as a turn ended: the next turn of this drive starts there. */
    public void turnEndedAt(long now) {
        turnEndClock = now;
    }

    /** A drive is over: the next turn reads the clock. */
    public void forgetTurnEndClock() {
        turnEndClock = 0;
    }

    /** The thread that runs every turn of this queue: set once, before it runs any. */
    public void consumedBy(Thread thread) {
        consumer = thread;
    }

    /** The thread that runs this queue's turns, or null if no one thread does. Any thread. */
    public Thread consumer() {
        return consumer;
    }

    /** The actor whose turn is running now, or null. Any thread. */
    public ActorCell running() {
        return (ActorCell) RUNNING.getAcquire(this);
    }

    /** Turns started on this queue so far. Any thread. */
    public long turnsStarted() {
        return (long) TURNS_STARTED.getOpaque(this);
    }
}

/** Keeps the consumer's fields off the line with the object's header and whatever the allocator put before it. */
abstract class RunQueuePadBeforeConsumer {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
}

/** Written by the consumer at each turn (and each poll, for the lock), read by the budget watch and thieves. */
abstract class RunQueueConsumerFields extends RunQueuePadBeforeConsumer {
    /** The actor whose turn the consumer is running, or null: the turn slot the budget watch reads. */
    @SuppressWarnings("unused")
    volatile ActorCell running;
    /** Turns the consumer has started, so the budget watch can tell a busy queue from an idle one. */
    @SuppressWarnings("unused")
    volatile long turnsStarted;
    /**
     * SINGLE_THREAD: the runtime clock when the consumer's last turn ended (the after-the-turn budget reads it
     * there), so the next turn of the same drive starts at it instead of reading the clock again; 0 outside a
     * drive. Consumer only.
     */
    long turnEndClock;
    /**
     * A worker's shared queue has several consumers (its worker and thieves), one at a time: each poll takes
     * this lock for the poll alone ({@code pollShared()}), never for the turn that follows.
     */
    @SuppressWarnings("unused")
    volatile int consumerLock;
}

/** Keeps the consumer's fields off the senders' line: the fields {@link RunQueue} reads in every offer. */
abstract class RunQueuePadAfterConsumer extends RunQueueConsumerFields {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
}
