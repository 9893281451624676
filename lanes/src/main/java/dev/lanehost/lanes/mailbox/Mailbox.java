package dev.lanehost.lanes.mailbox;

import dev.lanehost.lanes.TurnTask;
import dev.lanehost.lanes.observe.RuntimeLog;
import dev.lanehost.lanes.queue.MpscChunkQueue;
import dev.lanehost.lanes.seam.ResourceOwner;
import java.util.concurrent.atomic.LongAdder;

/**
 * An actor's mailbox: its letters in arrival order, counted as they come and go so that its depth (and
 * its lane's backlog) is known in O(1) without walking the queue or taking the turn lock.
 *
 * <p>Any thread may {@link #offer}; only the holder of the owner's turn lock takes letters out.
 */
public final class Mailbox {

    /**
     * Letters in chunks of slots, not linked ({@link MpscChunkQueue}): a long-lived actor's mailbox is in the old
     * generation, and each letter is then stored into it once, not twice, and counted by the same claim.
     */
    private final MpscChunkQueue<Letter> letters = new MpscChunkQueue<>();
    /** The owner's lane, whose backlog counts these letters too; null on the normal placement. */
    private final LaneCounters lane;

    public Mailbox(LaneCounters lane) {
        this.lane = lane;
    }

    /**
     * Any thread. The lane counts first, so its backlog never runs behind what its driver can take.
     *
     * @return true if the owner was idle and this letter made it runnable: the caller queues it
     */
    public boolean offer(Letter letter) {
        if (lane != null) {
            lane.letterQueued();
        }
        try {
            return letters.offer(letter);
        } catch (Throwable e) { // a new chunk could not be made: nothing was queued
            if (lane != null) {
                lane.letterWithdrawn();
            }
            throw e;
        }
    }

    /**
     * Admission and offer for a message or a task: queued only if this mailbox holds fewer than {@code capacity}
     * letters and its lane, if any, has room ({@link LaneCounters#hasRoom()}). Producers racing for the last
     * places never overfill the mailbox; past a lane's check they may overfill the lane by at most their number.
     * Any thread.
     *
     * @return {@link MpscChunkQueue#FULL} (nothing queued, nothing counted), {@link MpscChunkQueue#QUEUED}, or
     *         {@link MpscChunkQueue#QUEUED_WAS_IDLE} if this letter made the idle owner runnable (the caller queues it)
     */
    public int offerIfRoom(Letter letter, long capacity) {
        if (lane == null) {
            return letters.offerIfRoomClaiming(letter, capacity);
        }
        if (!lane.hasRoom()) {
            return MpscChunkQueue.FULL;
        }
        lane.letterQueued(); // first, as in offer
        int queued = MpscChunkQueue.FULL;
        try {
            queued = letters.offerIfRoomClaiming(letter, capacity);
            return queued;
        } finally {
            if (queued == MpscChunkQueue.FULL) { // full, or a chunk could not be made
                lane.letterWithdrawn();
            }
        }
    }

    // The owner's scheduled flag is the mailbox's idle mark, cleared by the letter that finds the owner idle: one CAS
    // a letter queues it and claims the owner's schedule (MpscChunkQueue, "The consumer's idle mark").

    /** Idle → runnable without a letter (a halt, a teardown left): true for the one caller that queues the owner. Any thread. */
    public boolean claimSchedule() {
        return letters.claimIdle();
    }

    /** The owner's runner, its mailbox found empty: idle unless a letter is queued or being queued. @return true if idle now */
    public boolean unscheduleIfEmpty() {
        return letters.markIdleIfEmpty();
    }

    /** The owner's runner gives up its hold whatever is queued (the turn lock's holder queues it again if need be). */
    public void unschedule() {
        letters.markIdle();
    }

    /** True unless the owner is idle: queued on its run queue or being run. Any thread (racy). */
    public boolean isScheduled() {
        return !letters.isIdle();
    }

    // The owner's turn lock is the queue's consumer lock: on the line only the runner writes, not on the owner's
    // cell, whose fields every sender reads (a lock there made each send fetch the line back from the runner's core).

    /** Takes the owner's turn lock if it is free: the runner, or a closing thread. */
    public boolean tryLockTurn() {
        return letters.tryLockConsumer();
    }

    /**
     * Tries for the turn lock for at most {@code patienceNanos}, yielding between tries: only the closing
     * thread waits for it.
     */
    public boolean tryLockTurn(long patienceNanos) {
        long deadline = System.nanoTime() + patienceNanos;
        while (!tryLockTurn()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** The runner's unlock: release orders the turn before whoever takes the lock next. */
    public void unlockTurn() {
        letters.unlockConsumer();
    }

    /**
     * A volatile unlock, for a holder that looks at the mailbox or the scheduled flag afterwards: a runner's hand-off or a
     * late sender, which found the lock taken, then relies on the holder seeing its mark or its letter.
     */
    public void unlockTurnAndFence() {
        letters.unlockConsumerAndFence();
    }

    public boolean isTurnLocked() {
        return letters.isConsumerLocked();
    }

    /** The next letter, or null. Turn-lock holder only. */
    public Letter take() {
        return letters.poll();
    }

    /** The next letter without taking it, or null. Turn-lock holder only. */
    public Letter peek() {
        return letters.peek();
    }

    /** True if no letter is queued or being queued. Turn-lock holder, or after a volatile hand-off. */
    public boolean isEmpty() {
        return letters.isEmpty();
    }

    /** Letters queued now: O(1), exact when nobody is sending, never negative. Any thread. */
    public long depth() {
        return letters.size();
    }

    /**
     * Turn-lock holder, once its actor has halted: drops every letter nobody will handle. A delivered
     * park still gets its release hook, a task its {@link TurnTask#abandoned()}.
     */
    public void releaseUnhandled(ResourceOwner<?, ?, ?> owner, LongAdder droppedMessages) {
        long dropped = 0;
        long messages = 0;
        try {
            for (Letter letter; (letter = take()) != null; ) {
                dropped++;
                if (letter instanceof Letter.Message) {
                    messages++;
                } else if (letter instanceof Letter.ParkCompleted completed) {
                    completed.park.releaseUnconsumed();
                } else if (letter instanceof Letter.Task submitted) {
                    abandon(owner, submitted.task);
                } else if (letter instanceof Letter.Reusable reusable) {
                    reusable.unclaim();
                    abandon(owner, reusable.task);
                }
            }
        } finally {
            if (dropped > 0 && lane != null) {
                lane.lettersTaken(dropped);
            }
            if (messages > 0) {
                droppedMessages.add(messages);
            }
        }
    }

    private static void abandon(ResourceOwner<?, ?, ?> owner, TurnTask task) {
        try {
            task.abandoned();
        } catch (Throwable e) {
            RuntimeLog.hookFailed(owner.describe(), "TurnTask.abandoned", e);
        }
    }
}
