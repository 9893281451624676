package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellRun;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A worker keeps the last actor it ran scheduled, its mailbox empty, while it has nothing else to run; a sender's
 * letter then finds it scheduled and queues nothing. Here the worker lets the kept actor go
 * ({@code CellRun.release}) as the letter comes: the actor must end up queued exactly once — by the sender, which
 * found it idle, or by the release, which found the letter — never twice (two runners) and never not at all (a letter
 * nobody runs). The release's unschedule is a CAS that fails on a letter queued or being queued; a plain idle mark in
 * its place loses the letter here. (In lanes' package, on the class path, to reach the runtime's package-private
 * context.)
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "queued once, by the sender or by the release")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the letter is queued and the actor is not: nobody runs it")
@Outcome(id = "2, 1", expect = FORBIDDEN, desc = "queued twice: two runners")
@Outcome(expect = FORBIDDEN, desc = "the letter was refused, or lost")
@State
public class KeptActorTest {
    private static final ActorRuntime RUNTIME = ActorRuntime.create(Profile.SINGLE_THREAD);

    private final WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE,
            Affinity.unavailable("stress test"), null);
    private final Worker worker = pool.worker(0);
    private final ActorCell kept = new ActorCell(1, "kept", Placement.NORMAL, RUNTIME.context(), worker.shared, pool, null,
            RUNTIME.context().defaultBudget, RUNTIME.context().mailboxCapacity, SpawnOptions.DEFAULT,
            () -> (context, message) -> { });

    public KeptActorTest() {
        kept.mailbox.take(); // the start letter, run: the worker holds the actor's schedule and its mailbox is empty
    }

    @Actor
    public void sender() {
        kept.offer("letter");
    }

    @Actor
    public void worker() {
        CellRun.release(kept);
    }

    /** r1 = how often the actor is in the worker's queue; r2 = letters in its mailbox. */
    @Arbiter
    public void arbiter(II_Result r) {
        int queued = 0;
        for (ActorCell cell; (cell = worker.shared.pollShared()) != null; ) {
            if (cell == kept) {
                queued++;
            }
        }
        r.r1 = queued;
        r.r2 = (int) kept.mailbox.depth();
    }
}
