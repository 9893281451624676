package dev.lanehost.lanes.runtime;

import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Snapshot;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.LaneAccess;
import dev.lanehost.lanes.lane.LaneWatch;
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
public final class LaneRegistry {
    private static final LaneAccess<ExecutionLane, ?, ?, ?, LaneWatch> LANES = Access.lanes();

    private final Map<String, ExecutionLane> lanes = new ConcurrentHashMap<>();
    /**
     * The same lanes in an array, replaced whole on each registration: the drain's quiescence check looks at every
     * lane on every {@code runUntilIdle}, and an iterator over the map is an object per look unless the JIT removes it
     * (in a JVM whose profile kept it, a host's loop of {@code runUntilIdle(ZERO)} allocated ~48 bytes a call).
     */
    private volatile ExecutionLane[] array = new ExecutionLane[0];
    private final AtomicLong stallReports = new AtomicLong();

    /** @throws IllegalArgumentException if a lane of that name is registered already */
    public void add(ExecutionLane lane) {
        if (lanes.putIfAbsent(lane.name(), lane) != null) {
            throw new IllegalArgumentException("a lane named '" + lane.name() + "' is already registered; lane names are unique");
        }
        synchronized (this) { // registrations are rare: one writer at a time rebuilds the array
            array = lanes.values().toArray(new ExecutionLane[0]);
        }
    }

    /** The lane of that name, or null. */
    ExecutionLane get(String name) {
        return lanes.get(name);
    }

    public boolean contains(String name) {
        return lanes.containsKey(name);
    }

    /** The registered names, sorted, for an error message. */
    Set<String> names() {
        return new TreeSet<>(lanes.keySet());
    }

    public Collection<ExecutionLane> all() {
        return lanes.values();
    }

    /** Every lane, for a loop that must not allocate (the budget watch's look, the drain's quiescence check). Do not modify. */
    public ExecutionLane[] array() {
        return array;
    }

    /** Runs every lane's stall watch (and logs rebinds waiting to be logged). */
    public void observeAll(long now) {
        for (ExecutionLane lane : array) {
            LANES.watch(lane).observe(now);
        }
    }

    /** Lanes stalled now, observing each. */
    public int stalledCount(long now) {
        int stalled = 0;
        for (ExecutionLane lane : array) {
            if (LANES.watch(lane).observe(now)) {
                stalled++;
            }
        }
        return stalled;
    }

    public List<Snapshot.LaneRow> rows(long now) {
        List<Snapshot.LaneRow> rows = new ArrayList<>();
        for (ExecutionLane lane : lanes.values()) {
            rows.add(LANES.watch(lane).row(now));
        }
        rows.sort(Comparator.comparing(Snapshot.LaneRow::name));
        return List.copyOf(rows);
    }

    /** Stall episodes seen on any lane; each lane counts its own into it. */
    public AtomicLong stallReports() {
        return stallReports;
    }
}
