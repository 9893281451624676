package dev.lanehost.lanes;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ActorRuntime#warmUpThread()}: runs the lane drive path (bind, drive, turn dispatch, release) on
 * a private lane and actor that exist only inside one call and only on the calling thread, so the JIT
 * compiles that path before a host's first real drive. The private lane is unregistered: it renames no
 * thread, logs nothing, has no teardown, and its run queue takes no part in a SIMULATED schedule.
 */
final class ThreadWarmUp {
    /**
     * Past HotSpot's default tier-4 thresholds (5,000 invocations, 15,000 invocations plus loops), so the
     * optimizing compiler has the drive path queued.
     */
    static final int FULL_ROUNDS = 20_000;
    /** Enough for the calling thread's own first-use costs (its allocation buffer, the attach) once the code is compiled. */
    static final int ROUNDS_ONCE_WARM = 500;
    private static final String NAME = "lanehost-warm-up";

    private final RuntimeContext runtime;
    /** Rounds run on this runtime so far, by any thread: compiled code serves every thread. */
    private final AtomicLong roundsRun = new AtomicLong();

    ThreadWarmUp(RuntimeContext runtime) {
        this.runtime = runtime;
    }

    void run() {
        if (runtime.isClosed()) {
            return;
        }
        ExecutionLane lane = new ExecutionLane(NAME, runtime, (name, work) -> new RunQueue(name, null, null, work), false);
        ActorCell actor = new ActorCell(0, NAME, Placement.lane(NAME), runtime, lane.queue, null, lane, runtime.defaultBudget, runtime.mailboxCapacity, SpawnOptions.DEFAULT,
                () -> (context, message) -> { });
        actor.schedule();
        DriveCounts counts = new DriveCounts();
        int rounds = roundsRun.get() >= FULL_ROUNDS ? ROUNDS_ONCE_WARM : FULL_ROUNDS;
        for (int round = 0; round < rounds && !runtime.isClosed(); round++) {
            lane.bind();
            actor.deliver(new Letter.Message(NAME));
            lane.drive(1, counts); // a turn (the first one is the private actor's start)
            lane.drive(1, counts); // and the common callback that finds nothing to do
            lane.release();
        }
        roundsRun.addAndGet(rounds);
    }
}
