package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.RunQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HOSTED's idle coordination, in one place as Tokio's {@code idle.rs} keeps it: how many workers spin (at most half
 * the pool) and how many are parked, which spinner an actor made runnable off the pool is handed to, and which parked
 * worker a busy one's queue wakes. The worker's own half of the park protocol is on {@link Worker}.
 */
public final class IdleWorkers {
    private final Worker[] workers;
    /** Workers announced as parking. */
    private final AtomicInteger parkedWorkers = new AtomicInteger();
    /** Workers spinning idle now, and how many may: half the pool, at least one (all of it with busy spin). */
    private final AtomicInteger spinners = new AtomicInteger();
    private final int maxSpinners;

    /** The pool's workers ({@code workers}, filled by the pool as it makes them); {@code parks}: its idle strategy parks. */
    IdleWorkers(Worker[] workers, boolean parks) {
        this.workers = workers;
        this.maxSpinners = parks ? Math.max(1, workers.length / 2) : workers.length;
    }

    /**
     * A spinning worker to give an actor made runnable off the pool: its home's worker if that one spins, else any
     * spinner, else null (it stays home). A spinner then finds the actor at its door (or in its queue) instead of waking
     * a parked home worker (a futex wake-up) or stealing it from a busy one (a round trip through another
     * worker's consumer lock). Reads each worker's door, a line of its own that changes only as the worker starts or
     * stops spinning.
     */
    Worker spinnerFor(RunQueue home) {
        Worker spinner = null;
        for (Worker worker : workers) {
            if (worker.handOff.isOpen()) {
                if (worker.shared == home) {
                    return worker;
                }
                if (spinner == null) {
                    spinner = worker;
                }
            }
        }
        return spinner;
    }

    /** True if any worker's shared queue holds an actor: a worker about to park steals instead. */
    boolean hasStealableWork() {
        for (Worker worker : workers) {
            if (worker.shared.depth() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rule 3, after an offer to a queue of {@code busy}, which is not parked: a parked worker is woken to steal
     * if no worker spins and {@code busy}'s shared queue holds more than one actor. A lone actor waits for the end of
     * the run in progress, as a wake-up (a futex call on the sender's path, microseconds) would cost more than most
     * runs: a caller whose reply comes back while the worker is still leaving its last run would otherwise pay one
     * every time. If the run goes on, the budget watch wakes a parked worker for it ({@link WorkerPool#rescueStuckWork()}).
     * Under load nobody parks, and this is one read of a word written only when a worker parks or wakes.
     */
    void offeredToBusyWorker(Worker busy) {
        if (parkedWorkers.get() == 0 || busy.shared.depth() < 2) {
            return;
        }
        wakeAParkedWorker(busy);
    }

    /** Wakes one parked worker other than {@code busy}, unless a worker spins (it steals by itself). */
    void wakeAParkedWorker(Worker busy) {
        Worker parked = null;
        for (Worker worker : workers) {
            if (worker.spinning) {
                return; // it steals by itself
            }
            if (parked == null && worker != busy && worker.parked) {
                parked = worker;
            }
        }
        if (parked != null) {
            parked.wake(); // false: another thread is waking it already
        }
    }

    /**
     * An idle worker asks to spin. At most half the pool spins at once (Go's rule): a spinner finds new work as
     * soon as any would, and more spinners would only take cores from the threads that make work — a caller
     * waiting on a gate spins too, and on two cores two spinning workers leave it none. The others park until woken.
     */
    public boolean claimSpin() {
        for (int now = spinners.get(); now < maxSpinners; now = spinners.get()) {
            if (spinners.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    public void spinEnded() {
        spinners.decrementAndGet();
    }

    public void parking(int delta) {
        parkedWorkers.addAndGet(delta);
    }
}
