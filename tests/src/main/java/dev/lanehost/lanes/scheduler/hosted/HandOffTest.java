package dev.lanehost.lanes.scheduler.hosted;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A spinning worker's door ({@link HandOff}) against the senders handing actors in: an actor a sender handed in
 * is found by the worker, by its take or by its close, exactly once; an actor the sender could not hand in stays
 * the sender's (it queues it). Losing one strands an actor that holds its scheduled flag, so it never runs again.
 *
 * (This class sits in the door's package, on the class path.)
 */
public final class HandOffTest {
    private HandOffTest() {
    }

    /**
     * One sender against a worker that looks at its door once, then stops spinning and closes it. r1 = 1 if the
     * sender handed its actor in; r2 = 1 if the worker's take found it; r3 = 1 if the close returned it.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "handed in before the look: the take found it")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "handed in between the look and the close: the close returned it")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "the door closed first: the sender keeps its actor")
    @Outcome(id = "1, 0, 0", expect = FORBIDDEN, desc = "lost: handed in and never found")
    @Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "found twice, or found without being handed in")
    @State
    public static class TakeThenClose {
        private final HandOff<String> door = new HandOff<>();
        private final String actor = "actor";
        private int taken;
        private int closedWith;

        public TakeThenClose() {
            door.open();
        }

        @Actor
        public void sender(III_Result r) {
            r.r1 = door.handIn(actor) ? 1 : 0;
        }

        @Actor
        public void worker() {
            taken = door.take() == actor ? 1 : 0;
            closedWith = door.close() == actor ? 1 : 0;
        }

        @Arbiter
        public void settle(III_Result r) {
            r.r2 = taken;
            r.r3 = closedWith;
        }
    }

    /**
     * Two senders race for one open door; the worker closes it after both (the arbiter: jcstress skips tests with more
     * actors than the machine has CPUs, and CI has two). Exactly one gets in, and the close returns its actor.
     * r1, r2 = 1 if that sender handed its actor in; r3 = which actor the close returned (0 none, 1 the first
     * sender's, 2 the second's).
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the first sender got in; the close returned its actor")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "the second sender got in; the close returned its actor")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "two actors in one door: one is lost")
    @Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "an actor lost, an open door refused both, or returned one never handed in")
    @State
    public static class TwoSenders {
        private final HandOff<String> door = new HandOff<>();
        private final String first = "first";
        private final String second = "second";

        public TwoSenders() {
            door.open();
        }

        @Actor
        public void firstSender(III_Result r) {
            r.r1 = door.handIn(first) ? 1 : 0;
        }

        @Actor
        public void secondSender(III_Result r) {
            r.r2 = door.handIn(second) ? 1 : 0;
        }

        @Arbiter
        public void workerCloses(III_Result r) {
            String closedWith = door.close();
            r.r3 = closedWith == null ? 0 : closedWith == first ? 1 : closedWith == second ? 2 : 3;
        }
    }

    /**
     * An actor waits at the door; its worker takes it (then closes the door) while a thief, which has seen it there
     * long enough, steals it. r1 = 1 if the worker's take got it; r2 = 1 if its close did; r3 = 1 if the thief did.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the worker took it first")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the thief stole it first; the worker found the door open and empty")
    @Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "lost, or run by two threads")
    @State
    public static class Thief {
        private final HandOff<String> door = new HandOff<>();
        private final String actor = "actor";

        public Thief() {
            door.open();
            door.handIn(actor);
        }

        @Actor
        public void worker(III_Result r) {
            r.r1 = door.take() == actor ? 1 : 0;
            r.r2 = door.close() == actor ? 1 : 0;
        }

        @Actor
        public void thief(III_Result r) {
            r.r3 = door.peek() == actor && door.steal(actor) ? 1 : 0;
        }
    }
}
