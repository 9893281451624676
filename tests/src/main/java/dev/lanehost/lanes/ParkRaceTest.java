package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.seam.LiveCounters;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A park's producer completes it while another thread cancels it: exactly one of them wins, and the release hook
 * (with the owner's count of ended resources) runs exactly once, when the park ends, never for a park whose letter
 * is still in the owner's mailbox. A hook that ran twice would stop a producer twice; one that never ran, leak it.
 *
 * (This class sits in lanes' package, on the class path, to reach the package-private park and its owner.)
 */
public final class ParkRaceTest {
    private ParkRaceTest() {
    }

    /** An owner that records what the park tells it; {@code halted}: it refuses the completion's letter. */
    static final class Owner extends StressOwner {
        final boolean halted;
        final AtomicInteger delivered = new AtomicInteger();
        final AtomicInteger ended = new AtomicInteger();

        Owner(boolean halted) {
            this.halted = halted;
        }

        @Override
        public boolean parkCompleted(ActorPark<?> park) {
            if (halted) {
                return false;
            }
            delivered.incrementAndGet();
            return true;
        }

        @Override
        public void ended(LiveCounters.Kind kind) {
            ended.incrementAndGet();
        }
    }

    /**
     * A live owner. r1 = complete's result, r2 = cancel's, r3 = letters delivered, r4 = hook runs (the owner's ended
     * count must match it).
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "completed first: its letter waits in the mailbox, the park not ended yet")
    @Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "cancelled first: the hook ran once, no letter")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, a letter for a cancelled park, or the hook ran twice or early")
    @State
    public static class CompleteAgainstCancel {
        final Owner owner = new Owner(false);
        final AtomicInteger hooks = new AtomicInteger();
        final ActorPark<String> park = new ActorPark<>(owner, (context, value) -> { }, hooks::incrementAndGet);

        @Actor
        public void producer(IIII_Result r) {
            r.r1 = park.complete("value") ? 1 : 0;
        }

        @Actor
        public void canceller(IIII_Result r) {
            r.r2 = park.cancel() ? 1 : 0;
        }

        @Arbiter
        public void settle(IIII_Result r) {
            r.r3 = owner.delivered.get();
            r.r4 = hooks.get() == owner.ended.get() ? hooks.get() : -1;
        }
    }

    /**
     * An owner that has halted, so the completion's letter is refused and the completer ends the park itself.
     * r1 = complete's result, r2 = cancel's, r3 = hook runs (the owner's ended count must match), r4 = 1 if the park
     * ended CANCELLED.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "completed first: refused by the halted owner, ended by the completer")
    @Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "cancelled first")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, or the hook ran twice or never")
    @State
    public static class CompleteForAHaltedOwnerAgainstCancel {
        final Owner owner = new Owner(true);
        final AtomicInteger hooks = new AtomicInteger();
        final ActorPark<String> park = new ActorPark<>(owner, (context, value) -> { }, hooks::incrementAndGet);

        @Actor
        public void producer(IIII_Result r) {
            r.r1 = park.complete("value") ? 1 : 0;
        }

        @Actor
        public void canceller(IIII_Result r) {
            r.r2 = park.cancel() ? 1 : 0;
        }

        @Arbiter
        public void settle(IIII_Result r) {
            r.r3 = hooks.get() == owner.ended.get() ? hooks.get() : -1;
            r.r4 = park.state() == ActorPark.State.CANCELLED ? 1 : 0;
        }
    }
}
