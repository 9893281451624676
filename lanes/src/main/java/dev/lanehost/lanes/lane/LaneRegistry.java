package dev.lanehost.lanes.lane;

import dev.lanehost.lanes.Snapshot;
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

    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    /**
     * The same lanes in an array, replaced whole on each registration: the drain's quiescence check looks at every
     * lane on every {@code runUntilIdle}, and an iterator over the map is an object per look unless the JIT removes it
     * (in a JVM whose profile kept it, a host's loop of {@code runUntilIdle(ZERO)} allocated ~48 bytes a call).
     */
    private volatile Lane[] array = new Lane[0];
    private final AtomicLong stallReports = new AtomicLong();

    /** @throws IllegalArgumentException if a lane of that name is registered already */
    public void add(Lane lane) {
        if (lanes.putIfAbsent(lane.name(), lane) != null) {
            throw new IllegalArgumentException("a lane named '" + lane.name() + "' is already registered; lane names are unique");
        }
        synchronized (this) { // registrations are rare: one writer at a time rebuilds the array
            array = lanes.values().toArray(new Lane[0]);
        }
    }

    /** The lane of that name, or null. */
    public Lane get(String name) {
        return lanes.get(name);
    }

    public boolean contains(String name) {
        return lanes.containsKey(name);
    }

    /** The registered names, sorted, for an error message. */
    public Set<String> names() {
        return new TreeSet<>(lanes.keySet());
    }

    public Collection<Lane> all() {
        return lanes.values();
    }

    /** Every lane, for a loop that must not allocate (the budget watch's look, the drain's quiescence check). Do not modify. */
    public Lane[] array() {
        return array;
    }

    /** Runs every lane's stall watch (and logs rebinds waiting to be logged). */
    public void observeAll(long now) {
        for (Lane lane : array) {
            lane.watch().observe(now);
        }
    }

    /** Lanes stalled now, observing each. */
    public int stalledCount(long now) {
        int stalled = 0;
        for (Lane lane : array) {
            if (lane.watch().observe(now)) {
                stalled++;
            }
        }
        return stalled;
    }

    public List<Snapshot.LaneRow> rows(long now) {
        List<Snapshot.LaneRow> rows = new ArrayList<>();
        for (Lane lane : lanes.values()) {
            rows.add(lane.watch().row(now));
        }
        rows.sort(Comparator.comparing(Snapshot.LaneRow::name));
        return List.copyOf(rows);
    }

    /** Stall episodes seen on any lane; each lane counts its own into it. */
    public AtomicLong stallReports() {
        return stallReports;
    }
}
