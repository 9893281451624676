package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * A worker's {@code next} slot against a thief: the actor in the slot must be run by exactly one of them, never
 * by both (two runners of one actor) and never by neither (an actor holding its scheduled flag that nobody runs).
 * The thief has already seen the actor stuck there often enough, so its next look takes it. (In lanes' package,
 * on the class path, to reach the package-private worker.)
 */
public class WorkerSlotTest {
    private static final ActorRuntime RUNTIME = ActorRuntime.create(Profile.SINGLE_THREAD);

    /** Two workers, not started: the test's threads play them. */
    abstract static class TwoWorkers {
        final WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE,
                Affinity.unavailable("stress test"), null);
        final Worker owner = pool.worker(0);
        final Worker thief = pool.worker(1);

        ActorCell cell(long id) {
            return new ActorCell(id, "slot-" + id, Placement.NORMAL, RUNTIME.context(), owner.shared, pool, null,
                    RUNTIME.context().defaultBudget, RUNTIME.context().mailboxCapacity, SpawnOptions.DEFAULT,
                    () -> (context, message) -> { });
        }

        /** The thief has seen the slot's actor, the owner in the same run, one time short of taking it. */
        void thiefHasWatched() {
            for (int i = 1; i < Worker.STUCK_SIGHTINGS; i++) {
                if (thief.asThief.fromSlotOf(owner) != null) {
                    throw new IllegalStateException("the thief took the actor before its last sighting");
                }
            }
        }
    }

    /** r1 = the owner took the slot's actor to run it; r2 = the thief took it. */
    @JCStressTest
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "the owner runs it")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the thief runs it")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both run the actor")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "nobody runs the actor")
    @State
    public static class TakeVersusSteal extends TwoWorkers {
        private final ActorCell queued = cell(1);

        public TakeVersusSteal() {
            owner.runNext(queued);
            thiefHasWatched();
        }

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = owner.takeNext() == queued;
        }

        @Actor
        public void thief(ZZ_Result r) {
            r.r2 = thief.asThief.fromSlotOf(owner) == queued;
        }
    }

    /**
     * The owner's turn makes a second actor runnable, displacing the first to the shared queue, while the thief
     * takes the first. r1 = the thief took the first; r2 = the first is in the owner's shared queue (or else both
     * or neither hold it). The second must be in the slot either way (checked by the arbiter: it fails the
     * sample otherwise).
     */
    @JCStressTest
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "the thief took the first before it was displaced")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the first was displaced to the shared queue first")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "the first is both stolen and queued: two runners")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "the first is lost")
    @State
    public static class DisplaceVersusSteal extends TwoWorkers {
        private final ActorCell first = cell(1);
        private final ActorCell second = cell(2);

        public DisplaceVersusSteal() {
            owner.runNext(first);
            thiefHasWatched();
        }

        @Actor
        public void owner() {
            owner.runNext(second);
        }

        @Actor
        public void thief(ZZ_Result r) {
            r.r1 = thief.asThief.fromSlotOf(owner) == first;
        }

        @Arbiter
        public void arbiter(ZZ_Result r) {
            r.r2 = owner.shared.pollShared() == first;
            if (owner.nextInSlot() != second) {
                r.r1 = r.r2; // reports as a forbidden outcome: the second actor is not in the slot
            }
        }
    }
}
