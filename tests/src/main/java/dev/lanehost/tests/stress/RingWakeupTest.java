package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.ring.SpscByteRing;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * No lost wake-up: a consumer going to sleep in {@code awaitReadable} (announce, re-check, sleep) races a
 * producer publishing bytes (release the position, advance the wake word, wake if a waiter was announced).
 * Whatever the interleaving, either the consumer's re-check sees the bytes or the producer sees the
 * announcement and wakes it, so the wait ends with the bytes and never at its timeout.
 *
 * <p>The consumer really sleeps (futex): a lost wake-up shows as a wait that ran to its timeout.
 *
 * <p>r1 = the consumer's wait: 1 saw the bytes, 0 timed out; r2 = wake system calls the producer made (0 or 1).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the consumer saw the bytes at its check or re-check; the producer found no waiter")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the producer found the announced waiter and woke it (or it re-checked first)")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: the consumer slept through published bytes, the producer saw no waiter")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the producer woke the consumer, yet it slept to its timeout")
@State
public class RingWakeupTest {
    /** Only a lost wake-up reaches it; the producer writes within microseconds of the consumer starting. */
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final SpscByteRing ring = StressRings.advancedTo(0);
    private final byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8};

    @Actor
    public void producer(II_Result r) {
        ring.write(bytes, 0, bytes.length);
        r.r2 = (int) ring.wakeCount(); // only the producer writes it
    }

    @Actor
    public void consumer(II_Result r) {
        try {
            r.r1 = ring.awaitReadable(bytes.length, TIMEOUT) ? 1 : 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r.r1 = -1;
        }
    }
}
