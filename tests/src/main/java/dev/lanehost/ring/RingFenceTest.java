package dev.lanehost.ring;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.Arena;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The waiting protocol's store-load race itself, with nothing around it: a producer publishes one byte (release store
 * of its position, then a plain load of the wake word), while a consumer announces that it sleeps, fences the
 * producer ({@code membarrier}) and re-checks — the consumer's steps 2 to 4, without the sleep. Dekker's pattern: a
 * store then a load on each side. The producer's load may pass its own store (x86 store buffering); only the fence
 * the consumer puts into the producer's thread forbids the outcome where the producer sees no waiter and the
 * consumer sees no byte, which would be a consumer asleep on a byte that is there. Without the fence this test
 * reports that outcome (checked on purpose); the whole-wait test ({@code RingWakeupTest}) is too slow around the
 * race to hit it. (In lanehost's package, on the class path, to reach the consumer's steps.)
 *
 * <p>r1 = 1 if the consumer's re-check saw the byte; r2 = the wakes the producer made (it saw the waiter).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the re-check saw the byte; the producer found no waiter")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both saw each other: a spare wake")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the consumer would sleep, and the producer saw it announced: it wakes it")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: no byte at the re-check, no waiter seen by the producer")
@State
public class RingFenceTest {
    private static final int CAPACITY = 64;
    private static final byte[] ONE = {42};

    private final SpscByteRing ring = SpscByteRing.initialize(
            Arena.ofAuto().allocate(SpscByteRingDescriptor.memoryLength(CAPACITY), 128), CAPACITY);

    @Actor
    public void producer(II_Result r) {
        ring.write(ONE, 0, 1);
        r.r2 = (int) ring.wakeCount(); // only the producer writes it
    }

    @Actor
    public void consumer(II_Result r) {
        r.r1 = ring.consumerSide().announceAndRecheck(1) == RingConsumer.ENOUGH_READABLE ? 1 : 0;
    }
}
