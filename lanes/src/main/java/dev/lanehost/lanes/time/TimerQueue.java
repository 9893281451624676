package dev.lanehost.lanes.time;

import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.queue.MpscNode;
import dev.lanehost.lanes.queue.MpscQueue;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The runtime's timer heap, ordered by deadline then creation. The HOSTED timer thread waits on it;
 * SINGLE_THREAD and SIMULATED fire due timers inline from {@code drain()}. Cancelled timers stay in the
 * heap until they reach the top and are dropped there (cancelling is O(1) and lock-free).
 *
 * <h2>Arrival protocol</h2>
 * <ol>
 *   <li>Any thread arms a timer by {@link #add}: it offers the timer's arrival node to a lock-free MPSC inbox (one
 *       atomic exchange; a repeating timer re-arms with the same node, so a periodic tick allocates nothing and
 *       never queues on a lock), then reads the deadline the consumer waits towards.</li>
 *   <li>The consumer (the timer thread, or the draining thread) moves the inbox into the heap before it looks at
 *       the heap. Only it touches the heap; the lock orders consecutive consumers and is never contended by adders.</li>
 *   <li>To wait, the timer thread publishes the deadline it will sleep towards, re-checks the inbox, and parks only
 *       if it is empty. An adder whose timer is due earlier unparks it. Both sides write then read a volatile, so one
 *       sees the other; an unpark that comes before the park is kept as its permit. No wake-up is lost.</li>
 * </ol>
 */
public final class TimerQueue {
    /** The timer thread waits towards no deadline: adders need not wake it. */
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<ActorTimer> heap = new PriorityQueue<>();
    private final MpscQueue<Arrival> inbox = new MpscQueue<>();
    /** Ties between equal deadlines break by creation order. */
    private final AtomicLong nextSequence = new AtomicLong();
    /** The deadline the parked timer thread will wake at by itself; NOT_WAITING when it is not about to park. */
    private volatile long waitingUntil = NOT_WAITING;
    /** The thread in {@link #awaitDue}, for adders and {@link #wake} to unpark. */
    private volatile Thread waiter;

    /** A timer's node in the inbox: one per timer, offered again each time a repeating timer re-arms. */
    public static final class Arrival extends MpscNode {
        final ActorTimer timer;

        public Arrival(ActorTimer timer) {
            this.timer = timer;
        }
    }

    /**
     * A timer due {@code delay} after {@code now} (saturating; a negative delay is due now), not yet armed; it
     * repeats every {@code periodNanos} if that is positive.
     */
    public ActorTimer newTimer(ResourceOwner<ActorTimer, ?, ?> owner, long now, Duration delay, long periodNanos,
            TurnCallback callback) {
        long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
        long deadline = Long.MAX_VALUE - now < nanos ? Long.MAX_VALUE : now + nanos;
        return new ActorTimer(owner, this, deadline, nextSequence(), periodNanos, callback);
    }

    /** The next tie-break: timers armed (or re-armed) earlier come first among equal deadlines. */
    public long nextSequence() {
        return nextSequence.incrementAndGet();
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** Arms a timer. Any thread; lock-free. @return true if it woke the timer thread (it slept towards a later deadline) */
    public boolean add(ActorTimer timer) {
        inbox.offer(timer.arrival);
        if (timer.deadline < waitingUntil) {
            wake();
            return true;
        }
        return false;
    }

    /** The thread that will wait in {@link #awaitDue}, registered before it first checks whether to stop. */
    public void waitOn(Thread thread) {
        waiter = thread;
    }

    /** Wakes the timer thread from {@link #awaitDue} (a budget watch's turn arrived, or the runtime stops). Any thread. */
    public void wake() {
        Thread sleeping = waiter;
        if (sleeping != null) {
            LockSupport.unpark(sleeping);
        }
    }

    /** Fires every timer due at {@code now}, in order, outside the lock. @return how many fired */
    public int fireDue(long now) {
        int fired = 0;
        while (true) {
            ActorTimer due;
            lock.lock();
            try {
                ActorTimer top = topArmed();
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
    public boolean hasArmed() {
        lock.lock();
        try {
            return topArmed() != null;
        } finally {
            lock.unlock();
        }
    }

    /** True if an armed timer falls due at or before {@code instant}. */
    public boolean hasArmedDueBy(long instant) {
        lock.lock();
        try {
            ActorTimer top = topArmed();
            return top != null && top.deadline <= instant;
        } finally {
            lock.unlock();
        }
    }

    /** The earliest armed timer's deadline, if it falls due at or before {@code instant}; else {@code instant}. */
    public long nextDeadlineWithin(long instant) {
        lock.lock();
        try {
            ActorTimer top = topArmed();
            return top != null && top.deadline <= instant ? top.deadline : instant;
        } finally {
            lock.unlock();
        }
    }

    /**
     * HOSTED timer thread: waits until the earliest armed timer is due, an earlier timer arrives, {@link #wake} is
     * called, or {@code maxWaitNanos} passes, whichever is first (or returns early, spuriously: callers loop).
     */
    public void awaitDue(LongSupplier clock, long maxWaitNanos) {
        long now = clock.getAsLong();
        long wait;
        lock.lock();
        try {
            ActorTimer top = topArmed();
            wait = top == null ? maxWaitNanos : Math.min(maxWaitNanos, top.deadline - now);
        } finally {
            lock.unlock();
        }
        if (wait <= 0) {
            return;
        }
        try {
            if (announceWait(now + wait)) {
                LockSupport.parkNanos(this, wait);
            }
        } finally {
            endWait();
        }
    }

    /** Step 3's announce-then-re-check. @return true if the inbox is still empty: the waiter may park */
    public boolean announceWait(long until) {
        waitingUntil = until;
        return inbox.isEmpty();
    }

    void endWait() {
        waitingUntil = NOT_WAITING;
    }

    /** The consumer, under the lock: the timers armed since it last looked join the heap. */
    private void takeArrivals() {
        for (Arrival arrival; (arrival = inbox.poll()) != null; ) {
            heap.add(arrival.timer);
        }
    }

    private ActorTimer topArmed() {
        takeArrivals();
        ActorTimer top;
        while ((top = heap.peek()) != null && !top.isArmed()) {
            heap.poll();
        }
        return top;
    }
}
