package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * No lost wakeup while the actor is busy: a send races the runner as it runs the actor's queued letter and then
 * gives up the schedule (clearing the scheduled flag, re-checking the mailbox). The sender may find the actor
 * scheduled and leave its letter to the runner's re-check without a CAS of its own; whatever the interleaving,
 * both messages are handled exactly once and nothing is left queued.
 *
 * <p>r1 = messages handled in total; r2 = actors still queued after the arbiter's drain; r3 = turns the racing
 * drain ran (0 or 1: a drain's pass runs one turn per actor).
 */
@JCStressTest
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "the runner polled while the sender was between its exchange and its link: "
        + "no letter could be taken yet, so the actor was requeued and the arbiter ran both")
@Outcome(id = "2, 0, 1", expect = ACCEPTABLE, desc = "the second message came after the runner's re-check; the arbiter ran it")
@Outcome(id = "[01], .*, .*", expect = FORBIDDEN, desc = "lost wakeup: a message was never run")
@Outcome(id = "[3-9].*", expect = FORBIDDEN, desc = "a message ran twice")
@Outcome(id = ".*, [1-9].*, .*", expect = FORBIDDEN, desc = "the actor was left queued with nothing to do")
@State
public class SendDuringRunTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final int[] handled = new int[1];
    private final ActorRef actor;
    private int racingTurns;

    public SendDuringRunTest() {
        actor = runtime.spawn("target", () -> (context, message) -> handled[0]++);
        actor.tell("prime");
        runtime.runUntilIdle(Duration.ZERO); // started and idle, one message handled
        handled[0] = 0;
        actor.tell("first"); // queued and scheduled: the runner below has a turn to run
    }

    @Actor
    public void sender() {
        actor.tell("second");
    }

    @Actor
    public void runner() {
        racingTurns = runtime.drain().turns();
    }

    @Arbiter
    public void settle(III_Result r) {
        runtime.runUntilIdle(Duration.ZERO);
        r.r1 = handled[0];
        r.r2 = (int) runtime.metrics().normalQueued();
        r.r3 = racingTurns;
        runtime.close();
    }
}
