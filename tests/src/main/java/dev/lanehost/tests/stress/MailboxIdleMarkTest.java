package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An actor's scheduled flag is its mailbox's idle mark: a runner that found the mailbox empty marks it idle (a CAS
 * that fails if a letter is queued or being queued), and the offer that next claims a place clears the mark in its
 * own CAS and makes the actor runnable. No letter may be left in an idle mailbox that nobody makes runnable, and no
 * idle spell may be taken twice.
 */
public final class MailboxIdleMarkTest {
    private MailboxIdleMarkTest() {
    }

    /**
     * A sender against the runner's mark. r1 = 1 if the sender's offer found the actor idle (it queues it); r2 = 1 if
     * the runner's mark held (it left the actor idle).
     */
    @JCStressTest
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a lost wake-up: the actor idle with a letter nobody queues it for")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the sender queued an actor its runner still holds: queued twice")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the mark first: the sender makes the actor runnable")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the letter first: the mark fails, the runner goes on")
    @State
    public static class SenderAgainstRunner {
        private final MpscChunkQueue<Object> mailbox = new MpscChunkQueue<>(2);

        public SenderAgainstRunner() {
            mailbox.offer("taken"); // the runner's letter, taken below: the racing offer is the chunk's second place
            mailbox.poll();
        }

        @Actor
        public void sender(II_Result r) {
            r.r1 = mailbox.offer("letter") ? 1 : 0;
        }

        @Actor
        public void runner(II_Result r) {
            r.r2 = mailbox.markIdleIfEmpty() ? 1 : 0;
        }
    }

    /** As {@link SenderAgainstRunner}, the sender's offer linking a new chunk (its claim sets the linking bit). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a lost wake-up: the actor idle with a letter nobody queues it for")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the sender queued an actor its runner still holds: queued twice")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the mark first: the sender makes the actor runnable")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the letter first: the mark fails, the runner goes on")
    @State
    public static class SenderAgainstRunnerAtALink {
        private final MpscChunkQueue<Object> mailbox = new MpscChunkQueue<>(2);

        public SenderAgainstRunnerAtALink() {
            mailbox.offer("first"); // a chunk filled and emptied: the racing offer links the next
            mailbox.offer("second");
            mailbox.poll();
            mailbox.poll();
        }

        @Actor
        public void sender(II_Result r) {
            r.r1 = mailbox.offer("letter") ? 1 : 0;
        }

        @Actor
        public void runner(II_Result r) {
            r.r2 = mailbox.markIdleIfEmpty() ? 1 : 0;
        }
    }

    /**
     * An idle actor, a sender and a halt (which claims the mark without a letter): exactly one of them queues it, and
     * the arbiter finds it not idle. r1 = the sender's claim, r2 = the halt's, r3 = 1 if the mark is still set.
     */
    @JCStressTest
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = ACCEPTABLE, desc = "one of them queued the actor")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "both queued it: queued twice")
    @Outcome(expect = FORBIDDEN, desc = "nobody queued it, or the mark survived a claim")
    @State
    public static class SenderAgainstHalt {
        private final MpscChunkQueue<Object> mailbox = new MpscChunkQueue<>(2);

        public SenderAgainstHalt() {
            mailbox.offer("first"); // a full chunk: the racing offer links the next
            mailbox.offer("second");
            mailbox.poll();
            mailbox.poll();
            mailbox.markIdleIfEmpty();
        }

        @Actor
        public void sender(III_Result r) {
            r.r1 = mailbox.offer("letter") ? 1 : 0;
        }

        @Actor
        public void halt(III_Result r) {
            r.r2 = mailbox.claimIdle() ? 1 : 0;
        }

        @Arbiter
        public void idleAfter(III_Result r) {
            r.r3 = mailbox.isIdle() ? 1 : 0;
        }
    }

    /**
     * A runner handing its actor back unconditionally ({@code markIdle}, the turn lock taken) while a sender offers:
     * the mark set either before the offer (the sender queues the actor) or after it (then it must stay set: the
     * lock holder queues the actor). r1 = the sender's claim, r2 = 1 if the mark is set at the end.
     */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "the actor is either queued by the sender or left idle")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "the hand-back was lost: a link's closing store overwrote the mark")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "the sender claimed the mark and it is still set")
    @State
    public static class HandBackAgainstLink {
        private final MpscChunkQueue<Object> mailbox = new MpscChunkQueue<>(2);

        public HandBackAgainstLink() {
            mailbox.offer("first"); // the racing offer links a chunk
            mailbox.offer("second");
        }

        @Actor
        public void sender(II_Result r) {
            r.r1 = mailbox.offer("letter") ? 1 : 0;
        }

        @Actor
        public void runner() {
            mailbox.markIdle();
        }

        @Arbiter
        public void idleAfter(II_Result r) {
            r.r2 = mailbox.isIdle() ? 1 : 0;
        }
    }
}
