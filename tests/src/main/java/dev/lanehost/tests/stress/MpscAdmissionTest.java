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

/**
 * A mailbox's admission with one producer: the queue starts with one element at capacity 1, the producer offers a
 * second with {@code offerIfRoom(second, 1)} while the consumer polls. The second is admitted only if the poll had
 * taken the first, so the queue never holds two. The producer's cached view of the consumer's position may be stale
 * (then it looks at the position itself), never ahead.
 *
 * <p>r1 = 1 if the producer admitted its node; r2 = 1 if the consumer's poll got the first node; r3 = nodes left.
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "polled first, then the producer saw the room and offered")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the producer checked before the poll took the first node: refused")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "admitted while the first node was still queued: over capacity")
@Outcome(id = ".*", expect = FORBIDDEN, desc = "anything else")
@State
public class MpscAdmissionTest {
    private final MpscChunkQueue<Object> queue = new MpscChunkQueue<>();
    private final Object first = "first";
    private final Object second = "second";
    private int admitted;
    private int polledFirst;

    public MpscAdmissionTest() {
        queue.offer(first);
    }

    @Actor
    public void producer() {
        admitted = queue.offerIfRoom(second, 1) ? 1 : 0;
    }

    @Actor
    public void consumer() {
        polledFirst = queue.poll() == first ? 1 : 0;
    }

    @Arbiter
    public void count(III_Result r) {
        int left = 0;
        while (queue.poll() != null) {
            left++;
        }
        if (queue.size() != 0) {
            left = -1; // the size disagrees with what was polled
        }
        r.r1 = admitted;
        r.r2 = polledFirst;
        r.r3 = left;
    }
}
