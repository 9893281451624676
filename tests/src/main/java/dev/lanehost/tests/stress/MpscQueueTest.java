package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.queue.MpscQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two producers offer concurrently while one of them, as the consumer, polls: every node comes out
 * exactly once, and a node a producer offered after another comes out after it. The poll may meet the
 * other producer mid-offer (the queue momentarily unlinked) and get nothing; the arbiter, running after
 * both actors, drains the rest. (Two actors, not three: jcstress silently skips tests with more actors
 * than the machine has CPUs, and CI has two.)
 *
 * <p>Node values: producer 1 offers 1 then 2; the consumer offers 4, then polls. r1 = what its poll
 * got (0 = nothing); r2 = the sum of everything polled; r3 = 1 if producer 1's nodes came out in order.
 */
@JCStressTest
@Outcome(id = "0, 7, 1", expect = ACCEPTABLE_INTERESTING, desc = "the poll met producer 1 mid-offer, ahead of node 4")
@Outcome(id = "1, 7, 1", expect = ACCEPTABLE, desc = "the racing poll got producer 1's first node")
@Outcome(id = "4, 7, 1", expect = ACCEPTABLE, desc = "the racing poll got producer 2's node")
@Outcome(id = "2, 7, .*", expect = FORBIDDEN, desc = "producer 1's second node came out before its first")
@Outcome(id = ".*, [^7], .*", expect = FORBIDDEN, desc = "a node was lost or came out twice")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "producer 1's nodes came out of order")
@State
public class MpscQueueTest {
    private final MpscQueue<ValuedNode> queue = new MpscQueue<>();
    private final ValuedNode one = new ValuedNode(1);
    private final ValuedNode two = new ValuedNode(2);
    private final ValuedNode four = new ValuedNode(4);
    private int racingPoll;

    @Actor
    public void producer1() {
        queue.offer(one);
        queue.offer(two);
    }

    @Actor
    public void producerAndConsumer() {
        racingPoll = ValuedNode.offerThenPoll(queue, four);
    }

    @Arbiter
    public void drainTheRest(III_Result r) {
        int sum = racingPoll;
        boolean seenOne = racingPoll == 1;
        boolean inOrder = racingPoll != 2;
        for (ValuedNode node; (node = queue.poll()) != null; ) {
            sum += node.value;
            if (node.value == 1) {
                seenOne = true;
            } else if (node.value == 2 && !seenOne) {
                inOrder = false;
            }
        }
        r.r1 = racingPoll;
        r.r2 = queue.isEmpty() ? sum : -sum;
        r.r3 = inOrder ? 1 : 0;
    }
}
