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
 * No lost wakeup, no double run: a send races the runner finishing the actor's previous turn (clearing
 * its scheduled flag and re-checking the mailbox). Whatever the interleaving, the message is handled
 * exactly once, and once everything settles nothing is left queued.
 *
 * <p>r1 = messages handled in total; r2 = actors still queued after the arbiter's drain; r3 = letters
 * handled by the racing drain (0 or 1, either is fine).
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the message arrived after the racing drain looked; the arbiter ran it")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the racing drain ran the message")
@Outcome(id = "0, .*, .*", expect = FORBIDDEN, desc = "lost wakeup: the message was never run")
@Outcome(id = "[2-9].*", expect = FORBIDDEN, desc = "the message ran twice")
@Outcome(id = ".*, [1-9].*, .*", expect = FORBIDDEN, desc = "the actor was left queued with nothing to do")
@State
public class WakeupTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final int[] handled = new int[1];
    private final ActorRef actor;
    private int racingTurns;

    public WakeupTest() {
        actor = runtime.spawn("target", () -> (context, message) -> handled[0]++);
        actor.tell("prime");
        runtime.runUntilIdle(Duration.ZERO); // started and idle, one message handled
        handled[0] = 0;
    }

    @Actor
    public void sender() {
        actor.tell("ping");
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
