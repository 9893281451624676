package dev.lanehost.lanes;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The runtime's timer heap, ordered by deadline then creation. The HOSTED timer thread waits on it;
 * SINGLE_THREAD and SIMULATED fire due timers inline from {@code drain()}. Cancelled timers stay in the
 * heap until they reach the top and are dropped there (cancelling is O(1) and lock-free).
 */
final class TimerQueue {
    /**
     * Tries at the lock before {@link #add} queues for it: a contended {@code lock()} parks in a queue node it
     * allocates, and a repeating timer re-arms from its owner's turn right after the timer thread fired it, often while
     * that thread still holds the lock. The holder's sections are a few heap operations, so a handful of tries almost
     * always get it, and a periodic tick stays allocation-free.
     */
    private static final int ADD_TRY_LOCKS = 64;
    /**
     * Then yields between tries, as many times: on a busy machine the holder may have been preempted inside its
     * section, and giving up the CPU lets it finish; only after that does {@link #add} queue (and allocate).
     */
    private static final int ADD_YIELDS = 16;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition earlier = lock.newCondition();
    private final PriorityQueue<Timer> heap = new PriorityQueue<>();
    /** Ties between equal deadlines break by creation order. */
    private final AtomicLong nextSequence = new AtomicLong();

    /**
     * A timer due {@code delay} after {@code now} (saturating; a negative delay is due now), not yet armed; it
     * repeats every {@code periodNanos} if that is positive.
     */
    Timer newTimer(ActorCell owner, long now, Duration delay, long periodNanos, TurnCallback callback) {
        long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
        long deadline = Long.MAX_VALUE - now < nanos ? Long.MAX_VALUE : now + nanos;
        return new Timer(owner, this, deadline, nextSequence(), periodNanos, callback);
    }

    /** The next tie-break: timers armed (or re-armed) earlier come first among equal deadlines. */
    long nextSequence() {
        return nextSequence.incrementAndGet();
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    void add(Timer timer) {
        lockForAdd();
        try {
            heap.add(timer);
            if (heap.peek() == timer) {
                earlier.signal(); // the timer thread may be sleeping towards a later deadline
            }
        } finally {
            lock.unlock();
        }
    }

    /** Fires every timer due at {@code now}, in order, outside the lock. @return how many fired */
    int fireDue(long now) {
        int fired = 0;
        while (true) {
            Timer due;
            lock.lock();
            try {
                Timer top = topArmed();
                if (top == null || top.deadline > now) {
                    return fired;
                }
                due = heap.poll();
            } finally {
                lock.unlock();
            }
            due.fire();
            fired++;
        }
    }

    /** True if any timer is armed. */
    boolean hasArmed() {
        lock.lock();
        try {
            return topArmed() != null;
        } finally {
            lock.unlock();
        }
    }

    /** True if an armed timer falls due at or before {@code instant}. */
    boolean hasArmedDueBy(long instant) {
        lock.lock();
        try {
            Timer top = topArmed();
            return top != null && top.deadline <= instant;
        } finally {
            lock.unlock();
        }
    }

    /** The earliest armed timer's deadline, if it falls due at or before {@code instant}; else {@code instant}. */
    long nextDeadlineWithin(long instant) {
        lock.lock();
        try {
            Timer top = topArmed();
            return top != null && top.deadline <= instant ? top.deadline : instant;
        } finally {
            lock.unlock();
        }
    }

    /**
     * HOSTED timer thread: waits until the earliest armed timer is due, a new earlier timer arrives, or
     * {@code maxWaitNanos} passes, whichever is first.
     */
    void awaitDue(java.util.function.LongSupplier clock, long maxWaitNanos) throws InterruptedException {
        lock.lock();
        try {
            Timer top = topArmed();
            long wait = top == null ? maxWaitNanos : Math.min(maxWaitNanos, top.deadline - clock.getAsLong());
            if (wait > 0) {
                earlier.await(wait, TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    private void lockForAdd() {
        for (int i = 0; i < ADD_TRY_LOCKS; i++) {
            if (lock.tryLock()) {
                return;
            }
            Thread.onSpinWait();
        }
        for (int i = 0; i < ADD_YIELDS; i++) {
            Thread.yield();
            if (lock.tryLock()) {
                return;
            }
        }
        lock.lock();
    }

    private Timer topArmed() {
        Timer top;
        while ((top = heap.peek()) != null && !top.isArmed()) {
            heap.poll();
        }
        return top;
    }
}
