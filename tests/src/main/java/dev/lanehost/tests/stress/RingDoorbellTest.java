package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.ring.SpscByteRing;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * An observer that hears the doorbell finds the bytes readable: the doorbell is rung after the
 * position is published, both with release, and read with acquire before the position.
 *
 * <p>r1 = doorbell seen; r2 = bytes readable afterwards.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "observer ran before the write")
@Outcome(id = "0, 8", expect = ACCEPTABLE, desc = "observer read the doorbell before it rang, then saw the bytes")
@Outcome(id = "1, 8", expect = ACCEPTABLE, desc = "observer heard the doorbell and saw the bytes")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "observer heard the doorbell but the bytes were not visible")
@State
public class RingDoorbellTest {
    private final SpscByteRing ring = StressRings.advancedTo(0);
    private final byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8};

    @Actor
    public void producer() {
        ring.write(bytes, 0, bytes.length);
    }

    @Actor
    public void observer(JJ_Result r) {
        r.r1 = ring.doorbell();
        r.r2 = ring.readable();
    }
}
