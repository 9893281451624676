package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.internal.MpscNode;
import dev.lanehost.lanes.internal.MpscQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A queue with a one-shot class, as a mailbox is: the last one-shot node taken stays as the queue's head, spent,
 * and the next poll steps past it. A producer links behind that spent head while the consumer polls: every node
 * comes out exactly once, in order, and a reusable node taken last still gets the stub queued behind it.
 *
 * <p>The queue starts with a spent head (a one-shot node offered and taken). The producer offers 1 (one-shot),
 * then 2 (reusable); the consumer polls twice. r1 = the first poll's value × 10 + the second's (0 = nothing);
 * r2 = the sum of everything polled, negative if the queue was not empty after the arbiter drained it; r3 = 1 if
 * 1 came out before 2.
 */
@JCStressTest
@Outcome(id = "0, 3, 1", expect = ACCEPTABLE, desc = "both polls came before the producer linked anything")
@Outcome(id = "1, 3, 1", expect = ACCEPTABLE_INTERESTING, desc = "the second poll stepped past the spent head to node 1")
@Outcome(id = "10, 3, 1", expect = ACCEPTABLE_INTERESTING, desc = "node 1 taken as the last one, staying as the head; 2 not linked yet")
@Outcome(id = "12, 3, 1", expect = ACCEPTABLE, desc = "both nodes taken by the racing polls")
@Outcome(expect = FORBIDDEN, desc = "a node lost, taken twice (the spent head again) or out of order")
@State
public class MpscOneShotTest {
    private final MpscQueue<MpscNode> queue = new MpscQueue<>(OneShotNode.class);
    private final OneShotNode one = new OneShotNode(1);
    private final ValuedNode two = new ValuedNode(2);
    private int first;
    private int second;

    public MpscOneShotTest() {
        queue.offer(new OneShotNode(100));
        queue.poll(); // now the spent head
    }

    @Actor
    public void producer() {
        queue.offer(one);
        queue.offer(two);
    }

    @Actor
    public void consumer() {
        first = valueOf(queue.poll());
        second = valueOf(queue.poll());
    }

    @Arbiter
    public void drainTheRest(III_Result r) {
        int sum = first + second;
        boolean inOrder = first != 2;
        boolean seenOne = first == 1 || second == 1;
        for (MpscNode node; (node = queue.poll()) != null; ) {
            int value = valueOf(node);
            sum += value;
            if (value == 1) {
                seenOne = true;
            } else if (value == 2 && !seenOne) {
                inOrder = false;
            }
        }
        r.r1 = first * 10 + second;
        r.r2 = queue.isEmpty() ? sum : -sum;
        r.r3 = inOrder ? 1 : 0;
    }

    private static int valueOf(MpscNode node) {
        if (node == null) {
            return 0;
        }
        return node instanceof OneShotNode oneShot ? oneShot.value : ((ValuedNode) node).value;
    }

    /** A node of the queue's one-shot class: never offered again once polled. */
    static final class OneShotNode extends MpscNode {
        final int value;

        OneShotNode(int value) {
            this.value = value;
        }
    }
}
