package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * A worker's park protocol against a sender: the worker announces that it parks and looks at its queues once
 * more, while a sender queues an actor on it and, after its offer, wakes it if it saw the announcement. The
 * worker must never park with the actor unseen and unwoken. (This class sits in lanes' package, on the class
 * path, to reach the package-private worker.)
 *
 * <p>r1 = the worker would park (its look found nothing); r2 = the sender woke it.
 */
@JCStressTest
@Outcome(id = "false, false", expect = ACCEPTABLE, desc = "the look found the actor; the sender came before the announcement")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the look found the actor, and the sender woke it anyway (a spare permit)")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the actor came after the look: the sender woke the worker")
@Outcome(id = "true, false", expect = FORBIDDEN, desc = "lost wake-up: the worker parks with an actor queued and nobody wakes it")
@State
public class WorkerParkTest {
    private static final ActorRuntime RUNTIME = ActorRuntime.create(Profile.SINGLE_THREAD);

    private final WorkerPool pool = new WorkerPool(1, IdleStrategy.DEFAULT, AffinityPolicy.NONE,
            Affinity.unavailable("stress test"), null);
    private final Worker worker = pool.worker(0);
    private final ActorCell cell = new ActorCell(1, "sent-to", Placement.NORMAL, RUNTIME.context(), worker.shared, pool,
            null, RUNTIME.context().defaultBudget, RUNTIME.context().mailboxCapacity, SpawnOptions.DEFAULT,
            () -> (context, message) -> { });

    @Actor
    public void worker(ZZ_Result r) {
        r.r1 = worker.announceParking();
    }

    @Actor
    public void sender(ZZ_Result r) {
        worker.shared.offer(cell, RunQueue.READY_BAND); // the offer's waker reads the announcement
        r.r2 = worker.wakeUps() > 0;
    }
}
