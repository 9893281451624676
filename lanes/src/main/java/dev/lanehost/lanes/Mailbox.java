package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscQueue;

/**
 * An actor's mailbox: its letters in arrival order, counted as they come and go so that its depth (and
 * its lane's backlog) is known in O(1) without walking the queue or taking the turn lock.
 *
 * <p>Any thread may {@link #offer}; only the holder of the owner's turn lock takes letters out.
 */
final class Mailbox {
    /**
     * A message's letter is made for one send and never queued again, so the last one taken may stay in the queue
     * as its head (see {@link MpscQueue}): a mailbox whose letters come one at a time takes each without an atomic
     * step. {@link Letter.Message#open()} lets go of the message, so the letter left behind holds nothing.
     */
    private final MpscQueue<Letter> letters = new MpscQueue<>(Letter.Message.class);
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
        letters.offer(letter);
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
        if (letters.offerIfRoom(letter, capacity)) {
            return true;
        }
        lane.lettersTaken(1);
        return false;
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
        try {
            for (Letter letter; (letter = take()) != null; ) {
                dropped++;
                if (letter instanceof Letter.Message message) {
                    message.open(); // dropped: nothing of it stays behind in the queue
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
