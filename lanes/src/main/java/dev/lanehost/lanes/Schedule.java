package dev.lanehost.lanes;

import java.util.List;

/**
 * The order in which a SIMULATED runtime ran its actors: one step per pick, naming the queue (a lane,
 * or {@code "normal"}) and the actor. Replaying it into a runtime built with the same program forces the
 * same picks.
 *
 * @param seed  the seed the schedule was made with
 * @param steps the picks in order
 */
public record Schedule(long seed, List<Step> steps) {
    public Schedule {
        steps = List.copyOf(steps);
    }

    /** One pick: which actor ran next on which queue. */
    public record Step(String queue, long actorId) {
    }
}
