package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.queue.WorkFlag;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ObjIntConsumer;

/**
 * HOSTED's threads for actors spawned with {@link dev.lanehost.lanes.ActorRuntime#spawnBlocked}: actors whose turns may block
 * (on I/O, a lock, {@link dev.lanehost.lanes.ActorContext#receive}) without holding up a worker.
 *
 * <ol>
 *   <li>A runnable blocking actor is queued on the pool's one run queue; a free thread takes it and runs one
 *       turn, then takes the next. So one thread runs one actor at a time, and an actor that blocks holds
 *       only its own thread.</li>
 *   <li>Threads start lazily: an offer that finds no idle thread starts one, up to the bound. Past the bound,
 *       runnable blocking actors wait in the queue, in order, until a thread is free; nothing is refused.</li>
 *   <li>A thread idle for {@link #KEEP_ALIVE_NANOS} ends. Before it does, it gives up its place in the count
 *       and looks at the queue once more: an offer that raced it either finds the place free and starts a
 *       thread, or is seen and run by this one.</li>
 * </ol>
 * Blocking actors are exempt from turn budgets (a blocking turn is their point) and are never stolen by
 * workers; messages reach them by {@link dev.lanehost.lanes.ActorRef} like any other actor.
 */
public final class BlockingPool {
    /** Idle threads end after this long without work. */
    static final long KEEP_ALIVE_NANOS = 60_000_000_000L;

    private final int bound;
    private final RunQueue queue = new RunQueue("blocking", null, this::offered, new WorkFlag());
    /** Idle threads, most recently idle first (the warmest is woken first). */
    private final ConcurrentLinkedDeque<BlockingThread> idle = new ConcurrentLinkedDeque<>();
    /** Threads started and not ended: at most {@link #bound}. */
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger names = new AtomicInteger();
    private final Set<Thread> live = ConcurrentHashMap.newKeySet();
    /** Applies the runtime's affinity policy to a new thread (and its number), on that thread. */
    private final ObjIntConsumer<Thread> placeThread;
    private volatile boolean running = true;

    BlockingPool(int bound, ObjIntConsumer<Thread> placeThread) {
        this.bound = bound;
        this.placeThread = placeThread;
    }

    RunQueue queue() {
        return queue;
    }

    boolean isBlockingThread(Thread thread) {
        return thread instanceof BlockingThread blocking && blocking.pool == this;
    }

    int threads() {
        return threads.get();
    }

    long queued() {
        return queue.depth();
    }

    /** After an offer to the queue (rule 2). Any thread. */
    private void offered() {
        BlockingThread free = idle.pollFirst();
        if (free != null) {
            LockSupport.unpark(free);
        } else {
            startThreadIfBelowBound();
        }
    }

    private boolean startThreadIfBelowBound() {
        int count;
        do {
            count = threads.get();
            if (count >= bound || !running) {
                return false;
            }
        } while (!threads.compareAndSet(count, count + 1));
        int number = names.getAndIncrement();
        BlockingThread thread = new BlockingThread(this, "lanehost-blocking-" + number, number);
        synchronized (live) { // against stop(): a thread starts before it, listed, or not at all
            if (!running) {
                threads.decrementAndGet();
                return false;
            }
            live.add(thread);
            thread.start();
        }
        return true;
    }

    /**
     * Stops the threads: after this returns no thread starts, and {@link #liveThreads()} lists every one that did
     * (a sender past the bound check when the stop came would otherwise start one that close never waits for).
     */
    public void stop() {
        synchronized (live) {
            running = false;
        }
        for (Thread thread : live) {
            LockSupport.unpark(thread);
        }
    }

    List<Thread> liveThreads() {
        return List.copyOf(live);
    }

    private static final class BlockingThread extends Thread {
        final BlockingPool pool;
        final int number;

        BlockingThread(BlockingPool pool, String name, int number) {
            super(name);
            setDaemon(true);
            this.pool = pool;
            this.number = number;
        }

        @Override
        public void run() {
            try {
                pool.placeThread.accept(this, number);
                pool.serve(this);
            } finally {
                pool.live.remove(this);
            }
        }
    }

    private void serve(BlockingThread self) {
        long idleSince = 0;
        while (running) {
            ActorCell cell = queue.pollShared();
            if (cell != null) {
                idleSince = 0;
                cell.runOnce();
                continue;
            }
            if (queue.depth() > 0) {
                Thread.onSpinWait(); // another thread holds the consumer lock, or a sender is mid-offer
                continue;
            }
            long now = System.nanoTime();
            if (idleSince == 0) {
                idleSince = now;
            }
            if (now - idleSince >= KEEP_ALIVE_NANOS && retire(self)) {
                return;
            }
            // Announce, re-check, park: an offer after our re-check finds us in the idle deque and unparks us.
            idle.addFirst(self);
            if (queue.depth() == 0 && running) {
                LockSupport.parkNanos(this, Math.max(1, KEEP_ALIVE_NANOS - (now - idleSince)));
            }
            idle.remove(self);
        }
        threads.decrementAndGet();
    }

    /** Rule 3. @return true if the thread may end */
    private boolean retire(BlockingThread self) {
        threads.decrementAndGet();
        if (queue.depth() == 0) {
            return true;
        }
        // Work arrived as we gave up our place: take the place back, unless an offer already used it.
        int count;
        do {
            count = threads.get();
            if (count >= bound) {
                return true; // a thread was started in our place; it will run the work
            }
        } while (!threads.compareAndSet(count, count + 1));
        return false;
    }
}
