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
 * Two producers race for a mailbox's last place ({@code offerIfRoom} at capacity 1 on an empty queue): the check and
 * the claim are one CAS's, so exactly one of them gets it — never both (over capacity), never neither (the place
 * lost to a refusal) — and a refusal counts nothing.
 *
 * <p>r1, r2 = 1 if producer 1, 2 was admitted; r3 = elements the arbiter polled, or -1 if the size disagrees.
 */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "producer 1 got the place")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "producer 2 got the place")
@Outcome(expect = FORBIDDEN, desc = "both admitted (over capacity), neither, or a count not given back")
@State
public class MpscLastPlaceTest {
    private final MpscChunkQueue<Object> queue = new MpscChunkQueue<>();
    private int admitted1;
    private int admitted2;

    @Actor
    public void producer1() {
        admitted1 = queue.offerIfRoom("one", 1) ? 1 : 0;
    }

    @Actor
    public void producer2() {
        admitted2 = queue.offerIfRoom("two", 1) ? 1 : 0;
    }

    @Arbiter
    public void count(III_Result r) {
        int polled = 0;
        while (queue.poll() != null) {
            polled++;
        }
        r.r1 = admitted1;
        r.r2 = admitted2;
        r.r3 = queue.size() == 0 ? polled : -1;
    }
}
