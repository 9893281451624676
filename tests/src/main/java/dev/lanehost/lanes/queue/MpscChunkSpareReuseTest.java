package dev.lanehost.lanes.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A mailbox's queue reusing the chunk its consumer leaves while the consumer is leaving it. Chunks of two; before the
 * race, 0 to 3 are offered (chunk A = [0, 1 | link to B], B = [2, 3]) and 0 taken, so the consumer is in A. The
 * consumer polls four times: it takes 1 (clearing A's slot), crosses into B (clearing A's link, then leaving A as the
 * spare), takes 2 and 3, and meets B's end, whose link the producer may be writing. The producer offers 10 (linking
 * the next chunk: the spare A if it sees it, else a new one), 11 (into the slot of A the consumer cleared), 12 (linking
 * from that chunk: A's link slot, which the consumer cleared). In the package of the queue, to see which chunk it used.
 *
 * <p>r1 = 1 if the producer reused A; r2 = 1 if the six came out once each and in order; r3 = 1 if the queue reads
 * empty with size 0 after the arbiter's drain. A consumer that left A as the spare before clearing its link failed
 * this test (1, 0, 0).
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the spare was reused while the consumer was leaving it")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the producer made a chunk (the spare not yet left)")
@Outcome(expect = FORBIDDEN, desc = "an element lost, duplicated or out of order, or a stale clear left the queue stuck")
@State
public class MpscChunkSpareReuseTest {
    private static final int[] EXPECTED = {1, 2, 3, 10, 11, 12};

    private final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);
    private final Object[] first = queue.firstChunk;
    private final int[] taken = new int[16];
    private int count;
    private int reused;

    public MpscChunkSpareReuseTest() {
        for (int i = 0; i < 4; i++) {
            queue.offer(i);
        }
        queue.poll();
    }

    @Actor
    public void consumer() {
        for (int i = 0; i < 4; i++) {
            Integer element = queue.poll();
            if (element != null) {
                taken[count++] = element;
            }
        }
    }

    @Actor
    public void producer() {
        queue.offer(10);
        reused = queue.producerChunk == first ? 1 : 0;
        queue.offer(11);
        queue.offer(12);
    }

    @Arbiter
    public void drainTheRest(III_Result r) {
        for (Integer element; count < taken.length && (element = queue.poll()) != null; ) {
            taken[count++] = element;
        }
        boolean inOrder = count == EXPECTED.length;
        for (int i = 0; inOrder && i < EXPECTED.length; i++) {
            inOrder = taken[i] == EXPECTED[i];
        }
        r.r1 = reused;
        r.r2 = inOrder ? 1 : 0;
        r.r3 = queue.isEmpty() && queue.size() == 0 ? 1 : 0;
    }
}
