package dev.lanehost.lanes;

import java.util.Map;

/**
 * What {@link ActorRuntime#closeAndReport()} did with each lane: where its actors were torn down, and why.
 *
 * @param lanes every registered lane by name, in name order
 */
public record CloseReport(Map<String, LaneTeardown> lanes) {
    public CloseReport {
        lanes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(lanes));
    }

    /** The outcome for one lane, or null if no lane of that name was registered. */
    public LaneTeardown lane(String name) {
        return lanes.get(name);
    }

    /** True if every lane's actors were torn down on a lane thread (or there were none). */
    public boolean allOnLaneThreads() {
        return lanes.values().stream().noneMatch(LaneTeardown::onClosingThread);
    }
}
