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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A chain offered at once ({@link MpscQueue#offerAll}, how a thief moves what it stole) races a single offer
 * and a poll: the chain's nodes were linked with plain stores before the exchange, so a consumer that reaches
 * the chain's first node must find the rest linked behind it, in order, and the count must cover them all.
 *
 * <p>Producer 1 offers the chain 1, 2, 8; the other actor offers 4, then polls. r1 = what its poll got
 * (0 = nothing); r2 = the sum of everything polled; r3 = 1 if the chain came out in its order; r4 = the size
 * the arbiter read before draining plus what the racing poll took (always 4 nodes in all).
 */
@JCStressTest
@Outcome(id = "0, 15, 1, 4", expect = ACCEPTABLE_INTERESTING, desc = "the poll met producer 1 mid-offer, ahead of node 4")
@Outcome(id = "1, 15, 1, 4", expect = ACCEPTABLE, desc = "the racing poll got the chain's first node")
@Outcome(id = "4, 15, 1, 4", expect = ACCEPTABLE, desc = "the racing poll got the single node")
@Outcome(expect = FORBIDDEN, desc = "a chain node ahead of its first, a node lost or twice, the chain out of order, or a miscount")
@State
public class MpscChainTest {
    private final MpscQueue<ValuedNode> queue = new MpscQueue<>();
    private final MpscQueue.Chain<ValuedNode> chain = new MpscQueue.Chain<>();
    private final ValuedNode one = new ValuedNode(1);
    private final ValuedNode two = new ValuedNode(2);
    private final ValuedNode eight = new ValuedNode(8);
    private final ValuedNode four = new ValuedNode(4);
    private int racingPoll;

    @Actor
    public void chainProducer() {
        chain.add(one);
        chain.add(two);
        chain.add(eight);
        queue.offerAll(chain);
    }

    @Actor
    public void producerAndConsumer() {
        racingPoll = ValuedNode.offerThenPoll(queue, four);
    }

    @Arbiter
    public void drainTheRest(IIII_Result r) {
        long counted = queue.size() + (racingPoll == 0 ? 0 : 1);
        int sum = racingPoll;
        int expectedNext = racingPoll == 1 ? 2 : 1; // the chain's next value due: 1, 2, 8
        boolean inOrder = racingPoll != 2 && racingPoll != 8;
        for (ValuedNode node; (node = queue.poll()) != null; ) {
            sum += node.value;
            if (node.value != 4) {
                if (node.value != expectedNext) {
                    inOrder = false;
                }
                expectedNext = expectedNext == 1 ? 2 : 8;
            }
        }
        r.r1 = racingPoll;
        r.r2 = queue.isEmpty() ? sum : -sum;
        r.r3 = inOrder ? 1 : 0;
        r.r4 = (int) counted;
    }
}
