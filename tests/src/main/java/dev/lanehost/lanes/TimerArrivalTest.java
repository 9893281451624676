package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.resource.ActorSignal;
import dev.lanehost.lanes.seam.ResourceOwner;
import dev.lanehost.lanes.time.ActorTimer;
import dev.lanehost.lanes.time.TimerQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * The timer queue's arrival handshake: a thread arms a timer due before the deadline the timer thread is about to
 * sleep towards, while that thread announces its wait and re-checks the inbox. The timer thread must never go to
 * sleep with that timer unseen and unwoken: either its re-check finds the timer, or the adder sees the announced
 * deadline and wakes it. (This class sits in lanes' package, on the class path, to reach the package-private queue.)
 *
 * <p>r1 = the timer thread would park (its re-check found the inbox empty); r2 = the adder woke it.
 */
@JCStressTest
@Outcome(id = "false, false", expect = ACCEPTABLE, desc = "the re-check saw the timer; the adder came before the announcement")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the re-check saw the timer, and the adder woke it anyway (a spare permit)")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the timer came after the re-check: the adder woke the sleeper")
@Outcome(id = "true, false", expect = FORBIDDEN, desc = "lost wake-up: asleep until its old deadline with an earlier timer unseen")
@State
public class TimerArrivalTest {
    private static final ResourceOwner<ActorTimer, ActorSignal, ActorPark<?>> OWNER = new StressOwner();

    private final TimerQueue queue = new TimerQueue();
    private final ActorTimer early = new ActorTimer(OWNER, queue, 10, 1, 0, context -> { });

    @Actor
    public void timerThread(ZZ_Result r) {
        r.r1 = queue.announceWait(1_000);
    }

    @Actor
    public void adder(ZZ_Result r) {
        r.r2 = queue.add(early);
    }
}
