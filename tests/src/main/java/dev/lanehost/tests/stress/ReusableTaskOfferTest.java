package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Delivery;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.ReusableTask;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two threads offer the same {@link ReusableTask}, whose one letter is a queue node, to two actors at once: exactly one
 * offer may queue it (a node linked into two queues, or twice into one, would corrupt them), the other must be
 * refused with {@code IllegalStateException}, and the task must run once.
 *
 * <p>r1, r2 = each offer: 0 queued, 1 refused as already queued, 2 anything else; r3 = runs after both queues drain.
 */
@JCStressTest
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the first thread's offer queued it; the second was refused")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the second thread's offer queued it; the first was refused")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "both offers queued the one node")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both offers refused: the task was lost")
@Outcome(expect = FORBIDDEN, desc = "anything else: another answer, or the task ran other than once")
@State
public class ReusableTaskOfferTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final ActorRef first;
    private final ActorRef second;
    private final Counted task = new Counted();

    /** Counts its runs; run only by the drainer (the arbiter). */
    private static final class Counted extends ReusableTask {
        int runs;

        @Override
        public void run(ActorContext context) {
            runs++;
        }
    }

    public ReusableTaskOfferTest() {
        first = runtime.spawn("first", () -> (context, message) -> { });
        second = runtime.spawn("second", () -> (context, message) -> { });
        runtime.runUntilIdle(Duration.ZERO); // both started
    }

    @Actor
    public void offerToFirst(III_Result r) {
        r.r1 = offer(first);
    }

    @Actor
    public void offerToSecond(III_Result r) {
        r.r2 = offer(second);
    }

    private int offer(ActorRef actor) {
        try {
            return actor.offerTask(task) == Delivery.QUEUED ? 0 : 2;
        } catch (IllegalStateException alreadyQueued) {
            return 1;
        }
    }

    @Arbiter
    public void settle(III_Result r) {
        runtime.runUntilIdle(Duration.ZERO);
        r.r3 = task.isQueued() ? 9 : task.runs;
        runtime.close();
    }
}
