package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A mailbox's queue in chunks of two slots, three elements through it before the race: the consumer has left the
 * first chunk (now the spare) for the second, whose last slot the first offer below fills; the next offer links the
 * spare as the third chunk, whichever producer makes it. Two producers offer concurrently while one of them, as the
 * consumer, polls (which {@code MpscChunkSpareReuseTest} races across a chunk's end). Every element comes out exactly once,
 * and an element a producer offered after another comes out after it, whichever offer links the third chunk and
 * wherever the poll meets it (a slot claimed and not yet stored: nothing, for now). The
 * arbiter, running after both actors, drains the rest. (Two actors: jcstress skips tests with more actors than the
 * machine has CPUs, and CI has two.)
 *
 * <p>Producer 1 offers 1 then 2; the consumer offers 4, then polls. r1 = what its poll got (0 = nothing); r2 = the sum
 * of everything polled, negated if the queue does not read empty after; r3 = 1 if producer 1's elements came out in
 * order.
 */
@JCStressTest
@Outcome(id = "0, 7, 1", expect = ACCEPTABLE_INTERESTING, desc = "the poll met producer 1 between its claim and its store")
@Outcome(id = "1, 7, 1", expect = ACCEPTABLE, desc = "the racing poll got producer 1's first element")
@Outcome(id = "4, 7, 1", expect = ACCEPTABLE, desc = "the racing poll got the consumer's own element")
@Outcome(id = "2, 7, .*", expect = FORBIDDEN, desc = "producer 1's second element came out before its first")
@Outcome(id = ".*, [^7], .*", expect = FORBIDDEN, desc = "an element was lost or came out twice, or the queue is not empty after")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "producer 1's elements came out of order")
@State
public class MpscChunkQueueTest {
    private final MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);
    private int racingPoll;

    public MpscChunkQueueTest() {
        for (int i = 0; i < 3; i++) {
            queue.offer(100);
            queue.poll();
        }
    }

    @Actor
    public void producer1() {
        queue.offer(1);
        queue.offer(2);
    }

    @Actor
    public void producerAndConsumer() {
        queue.offer(4);
        Integer polled = queue.poll();
        racingPoll = polled == null ? 0 : polled;
    }

    @Arbiter
    public void drainTheRest(III_Result r) {
        int sum = racingPoll;
        boolean seenOne = racingPoll == 1;
        boolean inOrder = racingPoll != 2;
        for (Integer element; (element = queue.poll()) != null; ) {
            sum += element;
            if (element == 1) {
                seenOne = true;
            } else if (element == 2 && !seenOne) {
                inOrder = false;
            }
        }
        r.r1 = racingPoll;
        r.r2 = queue.isEmpty() && queue.size() == 0 ? sum : -sum;
        r.r3 = inOrder ? 1 : 0;
    }
}
