package dev.lanehost.lanes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's lanes by name, and what observers learn by looking at all of them: stalls, snapshot
 * rows. Any thread; a lane is registered once and stays until the runtime is gone.
 */
final class LaneRegistry {
    private final Map<String, ExecutionLane> lanes = new ConcurrentHashMap<>();
    private final AtomicLong stallReports = new AtomicLong();

    /** @throws IllegalArgumentException if a lane of that name is registered already */
    void add(ExecutionLane lane) {
        if (lanes.putIfAbsent(lane.name(), lane) != null) {
            throw new IllegalArgumentException("a lane named '" + lane.name() + "' is already registered; lane names are unique");
        }
    }

    /** The lane of that name, or null. */
    ExecutionLane get(String name) {
        return lanes.get(name);
    }

    boolean contains(String name) {
        return lanes.containsKey(name);
    }

    /** The registered names, sorted, for an error message. */
    Set<String> names() {
        return new TreeSet<>(lanes.keySet());
    }

    Collection<ExecutionLane> all() {
        return lanes.values();
    }

    /** Runs every lane's stall watch (and logs rebinds waiting to be logged). */
    void observeAll(long now) {
        for (ExecutionLane lane : lanes.values()) {
            lane.watch.observe(now);
        }
    }

    /** Lanes stalled now, observing each. */
    int stalledCount(long now) {
        int stalled = 0;
        for (ExecutionLane lane : lanes.values()) {
            if (lane.watch.observe(now)) {
                stalled++;
            }
        }
        return stalled;
    }

    List<Snapshot.LaneRow> rows(long now) {
        List<Snapshot.LaneRow> rows = new ArrayList<>();
        for (ExecutionLane lane : lanes.values()) {
            rows.add(lane.watch.row(now));
        }
        rows.sort(Comparator.comparing(Snapshot.LaneRow::name));
        return List.copyOf(rows);
    }

    /** Stall episodes seen on any lane; each lane counts its own into it. */
    AtomicLong stallReports() {
        return stallReports;
    }
}
