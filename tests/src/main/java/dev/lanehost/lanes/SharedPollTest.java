package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.queue.WorkFlag;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A worker's shared queue: a sender offers an actor while a consumer (the worker or a thief) polls the queue,
 * finds it empty and lowers its work flag. Afterwards an actor still queued must find the flag raised, or no
 * consumer would look at the queue again (they skip a queue whose flag is down). (In lanes' package, on the
 * class path, to reach the package-private queue.)
 *
 * <p>r1 = 1 if the poll took the actor; r2 = 1 if the flag is raised afterwards; r3 = 1 if the actor is still queued.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the poll took the actor, nothing left")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the poll took the actor; a spare raise (harmless)")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the poll came first or met the offer mid-link; the flag says work")
@Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "lost work: the actor is queued and the flag is down")
@Outcome(id = ".*, .*, .*", expect = FORBIDDEN, desc = "the actor was lost or taken and still queued")
@State
public class SharedPollTest {
    private static final ActorRuntime RUNTIME = ActorRuntime.create(Profile.SINGLE_THREAD);

    private final WorkFlag work = new WorkFlag();
    private final RunQueue queue = new RunQueue("shared", null, null, work);
    private final ActorCell cell = new ActorCell(1, "sent", Placement.NORMAL, RUNTIME.context(), queue, null, null,
            RUNTIME.context().defaultBudget, RUNTIME.context().mailboxCapacity, SpawnOptions.DEFAULT,
            () -> (context, message) -> { });
    private int taken;

    public SharedPollTest() {
        work.raise(); // left raised by work taken earlier: the poll takes the full path and lowers it
    }

    @Actor
    public void sender() {
        queue.offer(cell, RunQueue.READY_BAND);
    }

    @Actor
    public void consumer() {
        if (queue.pollShared() != null) {
            taken = 1;
        }
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = taken;
        r.r2 = work.isRaised() ? 1 : 0;
        r.r3 = queue.depth() > 0 ? 1 : 0;
    }
}
