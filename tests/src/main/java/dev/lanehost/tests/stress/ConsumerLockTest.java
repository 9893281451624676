package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.internal.MpscChunkQueue;
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
     * The holder takes an element and notes it, then lets go; the other thread takes the lock if it can and reads the
     * note and the queue. A thread that gets the lock after the unlock sees the take: the element gone and the note.
     * r1 = 1 if the second thread took the lock; r2 = the note it read plus 10 if the queue still held the element.
     */
    @JCStressTest
    @Outcome(id = "1, 7", expect = ACCEPTABLE, desc = "took the lock after the unlock and saw the holder's take")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the lock was still held: nothing read")
    @Outcome(expect = FORBIDDEN, desc = "took the lock and missed what the holder did under it")
    @State
    public static class HandOver {
        private final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);
        private int note;

        public HandOver() {
            queue.offer(7);
            queue.tryLockConsumer();
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
