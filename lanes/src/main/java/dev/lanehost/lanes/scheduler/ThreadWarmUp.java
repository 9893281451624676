package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnTask;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.Lane;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.queue.WorkFlag;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@link dev.lanehost.lanes.ActorRuntime#warmUpThread()}: runs the lane drive path on a private lane and actors that exist only
 * inside one call and only on the calling thread, so the JIT compiles that path before a host's first real
 * drive. The private lane is unregistered: it renames no thread, logs nothing, has no teardown, and its run
 * queue takes no part in a SIMULATED schedule.
 *
 * <p>Compiled code keeps only the branches and receiver classes its profile saw; a real drive that takes
 * another one deoptimizes in the host's callback (milliseconds). So each round takes what a host thread's
 * first real drive takes, not just the steady state:
 * <ol>
 *   <li>the drive binds the lane anew, as a host's new thread does: after a release (odd rounds) or from a
 *       bound thread that has ended (even rounds: the lane is left bound to a thread that never started);</li>
 *   <li>it runs one turn, of one of three letter kinds — a message (most rounds), a task (every
 *       {@value #TASK_EVERY}th round), an actor's start (every {@value #ACTORS_EVERY} rounds a fresh actor) —
 *       so the letter call site is megamorphic: a kind it never saw is a virtual call, not a deoptimization;</li>
 *   <li>the actors take turns among three behaviour classes, for the same reason at the behaviour's
 *       {@code receive};</li>
 *   <li>the drive's bound takes turns among 1 (it stops at its bound), {@value #ROOMY_TURNS} and 0 (unbounded): with room
 *       left after the letter, the actor's run looks at its mailbox once more and finds it empty, as a host's drive
 *       of 8 or 0 turns does after its last letter (a warm-up of bound 1 alone never showed the JIT that look, and a
 *       host's first such drive deoptimized twice: the run's loop and the mailbox's empty slot);</li>
 *   <li>a second drive finds nothing to do (the common callback), then the lane is let go.</li>
 * </ol>
 */
public final class ThreadWarmUp {

    /**
     * Past HotSpot's default tier-4 thresholds (5,000 invocations, 15,000 invocations plus loops), so the
     * optimizing compiler has the drive path queued.
     */
    static final int FULL_ROUNDS = 20_000;
    /** Enough for the calling thread's own first-use costs (its allocation buffer, the attach) once the code is compiled. */
    static final int ROUNDS_ONCE_WARM = 500;
    /** A task every this many rounds: often enough to stay in the profile, rare enough that messages stay the major kind. */
    static final int TASK_EVERY = 16;
    /** A drive's bound with room past the round's letters: the actor's run takes them all and finds its mailbox empty. */
    static final int ROOMY_TURNS = 8;
    /** The first drive's bound, round by round: at the letter, with room past it, and unbounded. */
    private static final int[] FIRST_DRIVE_TURNS = {1, ROOMY_TURNS, 0};
    /** A fresh actor (a start turn) every this many rounds: several starts even in a short call. */
    static final int ACTORS_EVERY = 64;
    public static final String NAME = "lanehost-warm-up";
    private static final TurnTask NO_TASK = context -> { };
    /** Three classes, so a behaviour class the profile never saw is a virtual call, not a deoptimization. */
    private static final List<Supplier<Behavior>> BEHAVIORS = List.of(Quiet::new, Counting::new, Echoing::new);

    private final RuntimeContext runtime;
    /** Rounds run on this runtime so far, by any thread: compiled code serves every thread. */
    private final AtomicLong roundsRun = new AtomicLong();

    /** The private lane's run queue, which no worker serves: the warm-up drives it. */
    public static RunQueue privateQueue(String name, WorkFlag work) {
        return new RunQueue(name, null, null, work);
    }

    /** Makes the private lane, as the API makes a lane: named {@link #NAME}, registered nowhere. */
    private final Supplier<Lane> newLane;
    /** Leaves the private lane bound to a thread that ended, so the next drive rebinds it. */

    public ThreadWarmUp(RuntimeContext runtime, Supplier<Lane> newLane) {
        this.runtime = runtime;
        this.newLane = newLane;
    }

    public void run() {
        if (runtime.isClosed()) {
            return;
        }
        Lane lane = newLane.get();
        // Never started, so never alive: what a lane's bound thread looks like once its host thread has ended.
        Thread ended = Thread.ofPlatform().name(NAME).unstarted(() -> { });
        int rounds = roundsRun.get() >= FULL_ROUNDS ? ROUNDS_ONCE_WARM : FULL_ROUNDS;
        ActorCell actor = null;
        for (int round = 0; round < rounds && !runtime.isClosed(); round++) {
            if (round % ACTORS_EVERY == 0) {
                actor = privateActor(lane, BEHAVIORS.get((round / ACTORS_EVERY) % BEHAVIORS.size()));
                actor.enqueue(); // its start letter
            }
            actor.deliver(round % TASK_EVERY == TASK_EVERY - 1 ? new Letter.Task(NO_TASK) : new Letter.Message(NAME));
            lane.drive(FIRST_DRIVE_TURNS[round % FIRST_DRIVE_TURNS.length]); // binds the lane anew (1.), runs a turn (2.), its bound (4.)
            lane.drive(1); // another turn, or the common callback that finds nothing to do
            if (lane.release() != DriveStatus.OK) {
                break; // the runtime closed during the round: the lane stays bound to this thread, and the warm-up ends
            }
            if ((round & 1) == 0) {
                lane.leaveBoundToEndedThread(ended);
            }
        }
        roundsRun.addAndGet(rounds);
    }

    private ActorCell privateActor(Lane lane, Supplier<Behavior> behavior) {
        return new ActorCell(0, NAME, Placement.lane(NAME), runtime, lane.queue(), null, lane.counters(), runtime.defaultBudget,
                runtime.mailboxCapacity, SpawnOptions.DEFAULT, behavior);
    }

    /** The private actors never count as idle: an idle timeout would arm a timer for each of them. */
    private abstract static class Permanent implements Behavior {
        @Override
        public void started(ActorContext context) {
            context.unneeded(ActorContext.NEVER);
        }
    }

    private static final class Quiet extends Permanent {
        @Override
        public void receive(ActorContext context, Object message) {
        }
    }

    private static final class Counting extends Permanent {
        private long received;

        @Override
        public void receive(ActorContext context, Object message) {
            received++;
        }
    }

    private static final class Echoing extends Permanent {
        private Object last;

        @Override
        public void receive(ActorContext context, Object message) {
            last = message;
        }
    }
}
