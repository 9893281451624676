package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.ring.SpscByteRing;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The consumer's release of its position frees bytes only after it copied them out: a producer that
 * sees the room never overwrites bytes the consumer is still reading. The ring starts full of 'A'; the
 * producer offers a full ring of 'B'.
 *
 * <p>r1 = bytes the producer placed; r2 = 1 if the consumer read 64 bytes of 'A', else 0.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "producer found the ring still full; consumer read every 'A'")
@Outcome(id = "64, 1", expect = ACCEPTABLE, desc = "producer refilled after the consumer freed the ring; consumer read every 'A'")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "consumer read a byte the producer overwrote before it was freed")
@Outcome(id = "([1-9]|[1-5][0-9]|6[0-3]), 1", expect = FORBIDDEN, desc = "producer saw part of a single 64-byte release")
@State
public class RingReleaseTest {
    private final SpscByteRing ring = StressRings.advancedTo(StressRings.CAPACITY / 2);
    private final byte[] fresh = new byte[StressRings.CAPACITY];
    private final byte[] received = new byte[StressRings.CAPACITY];

    public RingReleaseTest() {
        byte[] old = new byte[StressRings.CAPACITY];
        Arrays.fill(old, (byte) 'A');
        ring.write(old, 0, old.length);
        Arrays.fill(fresh, (byte) 'B');
    }

    @Actor
    public void consumer(II_Result r) {
        int n = ring.read(received, 0, received.length);
        int clean = n == StressRings.CAPACITY ? 1 : 0;
        for (byte b : received) {
            if (b != 'A') {
                clean = 0;
            }
        }
        r.r2 = clean;
    }

    @Actor
    public void producer(II_Result r) {
        r.r1 = ring.write(fresh, 0, fresh.length);
    }
}
