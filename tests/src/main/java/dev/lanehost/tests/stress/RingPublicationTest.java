package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.ring.SpscByteRing;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The producer's release of its position publishes the bytes it copied: a consumer that sees the bytes
 * counted sees their contents, never the stale bytes underneath. The two writes straddle the end of the
 * data, so the wrapped copy is covered too.
 *
 * <p>r1 = bytes the consumer got; r2 = 1 if every byte it got is the one written, else 0.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "consumer ran first: nothing published yet")
@Outcome(id = "4, 1", expect = ACCEPTABLE_INTERESTING, desc = "consumer saw the first write only, intact")
@Outcome(id = "8, 1", expect = ACCEPTABLE, desc = "consumer saw both writes, intact")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "consumer counted bytes whose contents were not yet visible")
@State
public class RingPublicationTest {
    private final SpscByteRing ring = StressRings.advancedTo(StressRings.CAPACITY - 2);
    private final byte[] first = {1, 2, 3, 4};
    private final byte[] second = {5, 6, 7, 8};
    private final byte[] received = new byte[8];

    @Actor
    public void producer() {
        ring.write(first, 0, 4);
        ring.write(second, 0, 4);
    }

    @Actor
    public void consumer(II_Result r) {
        int n = ring.read(received, 0, 8);
        int intact = 1;
        for (int i = 0; i < n; i++) {
            if (received[i] != i + 1) {
                intact = 0;
            }
        }
        r.r1 = n;
        r.r2 = intact;
    }
}
