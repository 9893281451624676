package dev.lanehost.lanes.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The empty check of a lane's drive (or an idle worker's poll) against a sender publishing work: a producer offers
 * a node and raises the work flag, as a run queue's offer does, while the consumer runs the full path of a drive
 * whose flag was left raised by earlier work: lower the flag, look at the queue, take what is there, raise the flag
 * again if anything is left. Afterwards, a node still queued must find the flag raised; otherwise the lane's next
 * drive would read the flag, see it down, and leave the node queued for good. Twice: a lane's producer raises
 * after a look at the flag ({@link WorkFlag#raise()}), a worker queue's without one ({@link WorkFlag#raiseAtOnce()}).
 *
 * (This class sits in lanes' package, on the class path, to reach the package-private flag.)
 *
 * <p>r1 = 1 if the consumer took the node; r2 = 1 if the flag is raised afterwards; r3 = 1 if the node is
 * still queued afterwards.
 */
public final class WorkFlagTest {
    private WorkFlagTest() {
    }

    /** The sender raises after a look at the flag, as a lane's queue does. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the drive took the node; the producer raised before the drive lowered")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the drive took the node; the producer raised after it lowered (harmless)")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the drive looked first (or met the producer mid-offer); the flag says work")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "lost work: the node is queued and the flag is down")
    @Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "the node was lost or taken and still queued")
    @State
    public static class Raise {
        private final Race race = new Race();

        @Actor
        public void sender() {
            race.queue.offer(race.node);
            race.work.raise();
        }

        @Actor
        public void drive() {
            race.drive();
        }

        @Arbiter
        public void settle(III_Result r) {
            race.settle(r);
        }
    }

    /** The sender raises with one store, no look, as a worker's queue does. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the drive took the node; the producer raised before the drive lowered")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the drive took the node; the producer raised after it lowered (harmless)")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the drive looked first (or met the producer mid-offer); the flag says work")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "lost work: the node is queued and the flag is down")
    @Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "the node was lost or taken and still queued")
    @State
    public static class RaiseAtOnce {
        private final Race race = new Race();

        @Actor
        public void sender() {
            race.queue.offer(race.node);
            race.work.raiseAtOnce();
        }

        @Actor
        public void drive() {
            race.drive();
        }

        @Arbiter
        public void settle(III_Result r) {
            race.settle(r);
        }
    }

    /** The queue, its flag and the consumer's side, shared by both tests. */
    static final class Race {
        final MpscQueue<MpscNode> queue = new MpscQueue<>();
        final WorkFlag work = new WorkFlag();
        final MpscNode node = new MpscNode();
        private int taken;

        Race() {
            work.raise(); // left raised by work an earlier drive took: this drive takes the full path
        }

        void drive() {
            if (!work.isRaised()) {
                return; // the empty drive's fast path
            }
            work.lower();
            if (!queue.isEmpty()) {
                taken = queue.poll() == null ? 0 : 1; // null: the sender is mid-offer
            }
            if (!queue.isEmpty()) {
                work.raise();
            }
        }

        void settle(III_Result r) {
            r.r1 = taken;
            r.r2 = work.isRaised() ? 1 : 0;
            r.r3 = queue.isEmpty() ? 0 : 1;
        }
    }
}
