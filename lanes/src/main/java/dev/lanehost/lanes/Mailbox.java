package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscChunkQueue;

/**
 * An actor's mailbox: its letters in arrival order, counted as they come and go so that its depth (and
 * its lane's backlog) is known in O(1) without walking the queue or taking the turn lock.
 *
 * <p>Any thread may {@link #offer}; only the holder of the owner's turn lock takes letters out.
 */
final class Mailbox {
    /**
     * Letters in chunks of slots, not linked ({@link MpscChunkQueue}): a long-lived actor's mailbox is in the old
     * generation, and each letter is then stored into it once, not twice, and counted by the same claim.
     */
    private final MpscChunkQueue<Letter> letters = new MpscChunkQueue<>();
    /** The owner's lane, whose backlog counts these letters too; null on the normal placement. */
    private final ExecutionLane lane;

    Mailbox(ExecutionLane lane) {
        this.lane = lane;
    }

    /** Any thread. The lane counts first, so its backlog never runs behind what its driver can take. */
    void offer(Letter letter) {
        if (lane != null) {
            lane.letterQueued();
        }
        try {
            letters.offer(letter);
        } catch (Throwable e) { // a new chunk could not be made: nothing was queued
            if (lane != null) {
                lane.letterWithdrawn();
            }
            throw e;
        }
    }

    /**
     * Admission and offer for a message or a task: queued only if this mailbox holds fewer than {@code capacity}
     * letters and its lane, if any, has room ({@link ExecutionLane#hasRoom()}). Producers racing for the last
     * places never overfill the mailbox; past a lane's check they may overfill the lane by at most their number.
     * Any thread.
     *
     * @return true if queued; false if full (nothing queued, nothing counted)
     */
    boolean offerIfRoom(Letter letter, long capacity) {
        if (lane == null) {
            return letters.offerIfRoom(letter, capacity);
        }
        if (!lane.hasRoom()) {
            return false;
        }
        lane.letterQueued(); // first, as in offer
        boolean queued = false;
        try {
            queued = letters.offerIfRoom(letter, capacity);
            return queued;
        } finally {
            if (!queued) { // full, or a chunk could not be made
                lane.letterWithdrawn();
            }
        }
    }

    /** The next letter, or null. Turn-lock holder only. */
    Letter take() {
        return letters.poll();
    }

    /** The next letter without taking it, or null. Turn-lock holder only. */
    Letter peek() {
        return letters.peek();
    }

    /** True if no letter is queued or being queued. Turn-lock holder, or after a volatile hand-off. */
    boolean isEmpty() {
        return letters.isEmpty();
    }

    /** Letters queued now: O(1), exact when nobody is sending, never negative. Any thread. */
    long depth() {
        return letters.size();
    }

    /**
     * Turn-lock holder, once its actor has halted: drops every letter nobody will handle. A delivered
     * park still gets its release hook, a task its {@link TurnTask#abandoned()}.
     */
    void releaseUnhandled(ActorCell owner) {
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
                } else if (letter instanceof ReusableTask reusable) {
                    reusable.unclaim();
                    abandon(owner, reusable);
                }
            }
        } finally {
            if (dropped > 0 && lane != null) {
                lane.lettersTaken(dropped);
            }
            if (messages > 0) {
                owner.runtime.droppedMessages.add(messages);
            }
        }
    }

    private static void abandon(ActorCell owner, TurnTask task) {
        try {
            task.abandoned();
        } catch (Throwable e) {
            RuntimeLog.hookFailed(owner.describe(), "TurnTask.abandoned", e);
        }
    }
}
