package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.Schedule;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The SIMULATED profile's choices: which run queue goes next (the normal queue or a lane), and which
 * ready actor on it. Seeded, recorded as one {@link Schedule.Step} per actor pick, and optionally forced
 * by a schedule being replayed. The simulating thread makes nearly every choice; a lane driven by hand
 * from another thread records its picks too, so the methods are synchronized (this profile is for tests:
 * an uncontended lock costs nothing that matters there).
 */
public final class SimulatedSchedule implements RunQueue.SchedulePolicy {
    private final long seed;
    private final SplittableRandom random;
    private final List<Schedule.Step> replay;
    private final List<Schedule.Step> recorded = new ArrayList<>();
    /** Picks kept in {@link #recorded} at most: a soak's schedule must not fill the heap. */
    private final long recordLimit;
    /** Picks made so far (recorded or not): the step a replay is at. */
    private long steps;
    private String divergence;

    public SimulatedSchedule(long seed, Schedule replay, long recordLimit) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.replay = replay == null ? null : replay.steps();
        this.recordLimit = recordLimit;
    }

    /**
     * Which of the non-empty queues {@code names} runs next. Not a step of its own: the actor pick that
     * follows on the chosen queue records it. A replay takes the queue of its next step; one candidate
     * takes no randomness, so a program without lanes draws exactly what it did before lanes were chosen.
     */
    synchronized int chooseQueue(List<String> names) {
        if (names.size() == 1) {
            return 0;
        }
        long step = steps;
        if (replay != null && divergence == null && step < replay.size()) {
            int forced = names.indexOf(replay.get((int) step).queue());
            if (forced >= 0) {
                return forced;
            }
            // Not a candidate: the actor pick on whichever queue runs instead reports the divergence.
        }
        return random.nextInt(names.size());
    }

    @Override
    public synchronized int choose(String queue, List<ActorCell> ready) {
        int index = -1;
        long step = steps++;
        if (replay != null && divergence == null) {
            if (step >= replay.size()) {
                divergence = "the replayed schedule has " + replay.size() + (replay.size() == 1 ? " step" : " steps")
                        + ", but queue '" + queue + "' asked for step " + step;
            } else {
                Schedule.Step expected = replay.get((int) step);
                for (int i = 0; i < ready.size() && expected.queue().equals(queue); i++) {
                    if (ready.get(i).id == expected.actorId()) {
                        index = i;
                        break;
                    }
                }
                if (index < 0) {
                    divergence = "step " + step + ": the schedule says actor " + expected.actorId() + " on queue '"
                            + expected.queue() + "', but queue '" + queue + "' had ready " + ids(ready);
                }
            }
        }
        if (index < 0) {
            index = RunQueue.seededChoice(random, ready);
        }
        if (step < recordLimit) {
            recorded.add(new Schedule.Step(queue, ready.get(index).id));
        } else if (step == recordLimit) {
            RuntimeLog.logSafely(System.Logger.Level.INFO, "the SIMULATED schedule keeps its first " + recordLimit
                    + " picks (RuntimeBuilder.scheduleLimit); the run goes on, and its seed reproduces all of it");
        }
        return index;
    }

    public synchronized Schedule recorded() {
        return new Schedule(seed, recorded);
    }

    /** Picks made so far, including those past the recording limit. */
    public synchronized long steps() {
        return steps;
    }

    public synchronized String divergence() {
        return divergence;
    }

    private static List<Long> ids(List<ActorCell> ready) {
        List<Long> ids = new ArrayList<>(ready.size());
        for (ActorCell cell : ready) {
            ids.add(cell.id);
        }
        return ids;
    }
}
