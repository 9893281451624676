package dev.lanehost.lanes.scheduler;

import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.lane.Lane;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the SIMULATED profile's one thread runs: the normal queue and every lane, so a seed fixes the
 * whole interleaving, not only the normal queue's part of it.
 *
 * <h2>Pick protocol</h2>
 * <ol>
 *   <li>The candidates are the non-empty queues the simulating thread may run: the normal queue, then
 *       each lane in registration order that is unbound or bound to that thread. A lane bound to another
 *       thread (a test that drives it by hand from there) belongs to that thread and is left alone.</li>
 *   <li>The seeded schedule chooses one candidate ({@link SimulatedSchedule#chooseQueue}), and that
 *       queue's own seeded pick chooses the actor and records the step {@code (queue, actorId)}.</li>
 *   <li>Queues are served in rounds: a queue picked in this round is no candidate again until every ready
 *       queue has had its pick. With each queue's own rounds ({@link RunQueue}), a ready actor is dispatched
 *       within a bounded number of picks whatever the seed.</li>
 *   <li>A lane pick is a {@code drive(1)} from the simulating thread, so the lane binds to it on first use
 *       and counts the drive and the turn like any host's.</li>
 * </ol>
 * Only the draining thread calls {@link #runOne} (the runtime admits one drainer at a time).
 */
public final class SimulatedQueues {
    private final RunQueue normal;
    private final SimulatedSchedule schedule;
    /** Registration order: the candidate order must not depend on hashing. */
    private final List<Lane> lanes = new CopyOnWriteArrayList<>();
    // Drainer-only scratch, reused so a pick allocates nothing.
    private final List<String> names = new ArrayList<>();
    /** Parallel to names; null stands for the normal queue. */
    private final List<Lane> candidates = new ArrayList<>();
    /** Queues picked in this round (a lane, or {@link #normal}). */
    private final List<Object> served = new ArrayList<>();

    SimulatedQueues(RunQueue normal, SimulatedSchedule schedule) {
        this.normal = normal;
        this.schedule = schedule;
    }

    void laneRegistered(Lane lane) {
        lanes.add(lane);
    }

    /** Actors queued on the normal queue and on every lane {@code host} may run. */
    long runnable(Thread host) {
        long total = normal.depth();
        for (Lane lane : lanes) {
            if (runsOn(lane, host)) {
                total += lane.queued();
            }
        }
        return total;
    }

    /**
     * One seeded pick: runs one letter of one actor on the chosen queue.
     *
     * @return turns run (0 when the pick was a halt teardown), or -1 if nothing could be polled
     */
    int runOne(Thread host) {
        gatherCandidates(host);
        if (names.isEmpty()) {
            if (served.isEmpty()) {
                return -1;
            }
            served.clear(); // every ready queue had its pick: a new round
            gatherCandidates(host);
            if (names.isEmpty()) {
                return -1;
            }
        }
        Lane lane = candidates.get(schedule.chooseQueue(names));
        served.add(lane == null ? normal : lane);
        if (lane == null) {
            ActorCell cell = normal.poll();
            return cell == null ? -1 : cell.runOnce();
        }
        long driven = lane.drive(1);
        return Lane.status(driven) == DriveStatus.OK.code() ? Lane.turnsRun(driven) : -1;
    }

    /** The ready queues the host may run that have not had their pick in this round. */
    private void gatherCandidates(Thread host) {
        names.clear();
        candidates.clear();
        if (normal.depth() > 0 && !served.contains(normal)) {
            names.add(normal.name());
            candidates.add(null);
        }
        for (Lane lane : lanes) {
            if (lane.queued() > 0 && runsOn(lane, host) && !served.contains(lane)) {
                names.add(lane.name());
                candidates.add(lane);
            }
        }
    }

    private static boolean runsOn(Lane lane, Thread host) {
        Thread bound = lane.boundThread();
        return bound == null || bound == host;
    }
}
