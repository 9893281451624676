package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A mailbox queue's consumer lock, which is an actor's turn lock: a runner and a closing thread race for it, and
 * whoever takes it next must see what the last holder did under it.
 */
public final class ConsumerLockTest {
    private ConsumerLockTest() {
    }

    /** A two-slot chunk queue whose consumer lock a holder took before the race, as a runner or a closer holds it. */
    abstract static class Held {
        final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);

        Held() {
            queue.tryLockConsumer();
        }
    }

    /** Two threads try for a free lock and neither lets go: exactly one holds it. */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "one of them holds it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both hold it: two consumers at once")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither holds a free lock")
    @State
    public static class Exclusion {
        private final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);

        @Actor
        public void runner(II_Result r) {
            r.r1 = queue.tryLockConsumer() ? 1 : 0;
        }

        @Actor
        public void closer(II_Result r) {
            r.r2 = queue.tryLockConsumer() ? 1 : 0;
        }
    }

    /**
     * A runtime close holds an actor's turn lock while its runner, finding it taken, hands the actor back: the runner
     * marks its mailbox idle and then looks at the lock; the closer lets go with a fence and then looks at the mark.
     * One of them must see the other, or nobody queues the actor again. r1 = 1 if the runner saw the lock held; r2 = 1
     * if the closer saw the mark.
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "0, 1", "1, 1"}, expect = ACCEPTABLE, desc = "at least one saw the other")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "each missed the other: the actor is left idle with nobody to queue it")
    @State
    public static class HandBackAgainstUnlock extends Held {

        @Actor
        public void runner(II_Result r) {
            queue.markIdle();
            r.r1 = queue.isConsumerLocked() ? 1 : 0;
        }

        @Actor
        public void closer(II_Result r) {
            queue.unlockConsumerAndFence();
            r.r2 = queue.isIdle() ? 1 : 0;
        }
    }

    /**
     * After a close, a sender whose letter lands on a torn-down actor releases it itself, unless the lock is taken;
     * then the holder must release it after letting go. The sender offers and then tries for the lock; the holder
     * lets go with a fence and then looks at the mailbox. r1 = 1 if the sender got the lock; r2 = 1 if the holder saw
     * the letter.
     */
    @JCStressTest
    @Outcome(id = {"1, 0", "1, 1", "0, 1"}, expect = ACCEPTABLE, desc = "the sender or the holder has the letter to release")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "the sender left the letter to a holder that saw an empty mailbox")
    @State
    public static class LateLetterAgainstUnlock extends Held {

        @Actor
        public void sender(II_Result r) {
            queue.offer(1);
            r.r1 = queue.tryLockConsumer() ? 1 : 0;
        }

        @Actor
        public void holder(II_Result r) {
            queue.unlockConsumerAndFence();
            r.r2 = queue.isEmpty() ? 0 : 1;
        }
    }

    /**
     * The holder takes an element and notes it, then lets go; the other thread takes the lock if it can and reads the
     * note and the queue. A thread that gets the lock after the unlock sees the take: the element gone and the note.
     * r1 = 1 if the second thread took the lock; r2 = the note it read plus 10 if the queue still held the element.
     */
    @JCStressTest
    @Outcome(id = "1, 7", expect = ACCEPTABLE, desc = "took the lock after the unlock and saw the holder's take")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the lock was still held: nothing read")
    @Outcome(expect = FORBIDDEN, desc = "took the lock and missed what the holder did under it")
    @State
    public static class HandOver extends Held {
        private int note;

        public HandOver() {
            queue.offer(7); // after the lock: the holder queued it, as a mailbox's letter comes while its runner holds it
        }

        @Actor
        public void holder() {
            Integer taken = queue.poll();
            note = taken == null ? -1 : taken;
            queue.unlockConsumer();
        }

        @Actor
        public void next(II_Result r) {
            if (queue.tryLockConsumer()) {
                r.r1 = 1;
                r.r2 = note + (queue.poll() != null ? 10 : 0);
            }
        }
    }
}
