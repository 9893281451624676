package dev.lanehost.lanes.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A look at a mailbox by a thread that is not its consumer, as a worker looks at the actor it kept after a thief took
 * that actor from its door: the look ({@link MpscChunkQueue#peek}) must change nothing, whatever the consumer does
 * meanwhile. Chunks of two, 0 to 5 offered before the race (A = [0, 1], B = [2, 3], C = [4, 5]) and 0 taken; the
 * consumer takes 1 to 5, crossing from A into B and from B into C, while the other thread looks at the head again and
 * again. The arbiter then offers 6 to 9 and drains the queue.
 *
 * <p>r1 = 1 if 1 to 9 came out once each and in order; r2 = 1 if the queue then reads empty with size 0. A look that
 * crossed into the next chunk itself moved the consumer's chunk back behind the consumer (and left a chunk as the
 * spare a second time): letters lost or repeated, and a worker's look at an actor a thief was running left that actor
 * scheduled with a letter nobody could take.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the look changed nothing")
@Outcome(expect = FORBIDDEN, desc = "the look changed the queue: an element lost, duplicated or out of order, or the queue stuck")
@State
public class MpscChunkStaleLookTest {
    private static final int LAST = 9;

    private final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);
    private final int[] taken = new int[32];
    private int count;

    public MpscChunkStaleLookTest() {
        for (int i = 0; i <= 5; i++) {
            queue.offer(i);
        }
        queue.poll();
    }

    @Actor
    public void consumer() {
        for (int i = 0; i < 5; i++) {
            Integer element = queue.poll();
            if (element != null) {
                taken[count++] = element;
            }
        }
    }

    @Actor
    public void staleLook() {
        for (int i = 0; i < 8; i++) {
            queue.peek();
        }
    }

    @Arbiter
    public void offerAndDrain(II_Result r) {
        for (int i = 6; i <= LAST; i++) {
            queue.offer(i);
        }
        for (Integer element; count < taken.length && (element = queue.poll()) != null; ) {
            taken[count++] = element;
        }
        boolean inOrder = count == LAST;
        for (int i = 0; inOrder && i < LAST; i++) {
            inOrder = taken[i] == i + 1;
        }
        r.r1 = inOrder ? 1 : 0;
        r.r2 = queue.isEmpty() && queue.size() == 0 ? 1 : 0;
    }
}
