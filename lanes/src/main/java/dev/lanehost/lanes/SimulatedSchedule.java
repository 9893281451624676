package dev.lanehost.lanes;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The SIMULATED profile's choice among ready actors: seeded, recorded, and optionally forced by a
 * schedule being replayed. Used only from the one host thread, so it needs no synchronisation.
 */
final class SimulatedSchedule implements RunQueue.SchedulePolicy {
    private final long seed;
    private final SplittableRandom random;
    private final List<Schedule.Step> replay;
    private final List<Schedule.Step> recorded = new ArrayList<>();
    private String divergence;

    SimulatedSchedule(long seed, Schedule replay) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.replay = replay == null ? null : replay.steps();
    }

    @Override
    public int choose(String queue, List<ActorCell> ready) {
        int index = -1;
        int step = recorded.size();
        if (replay != null && divergence == null) {
            if (step >= replay.size()) {
                divergence = "the replayed schedule has " + replay.size() + " steps, but queue '" + queue
                        + "' asked for step " + step;
            } else {
                Schedule.Step expected = replay.get(step);
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
        recorded.add(new Schedule.Step(queue, ready.get(index).id));
        return index;
    }

    Schedule recorded() {
        return new Schedule(seed, recorded);
    }

    String divergence() {
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
