package dev.lanehost.lanes.lane;

import dev.lanehost.lanes.Snapshot;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.observe.RuntimeEvents;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What observers see of one {@link ExecutionLane}: its stall watch, the rebinds waiting to be logged, and its
 * snapshot row. Only observers call it (a snapshot, the metrics, the HOSTED timer thread), so a drive never
 * reads the clock or writes a log line just to be watched.
 */
public final class LaneWatch {

    private final Lane lane;
    private final LaneBinding binding;
    private final StallWatch stallWatch;
    /** The runtime's count of stall episodes, shared by its lanes. */
    private final AtomicLong stallReports;
    private final RuntimeContext runtime;

    public LaneWatch(Lane lane, LaneBinding binding, RuntimeContext runtime) {
        this.lane = lane;
        this.runtime = runtime;
        this.binding = binding;
        this.stallWatch = new StallWatch(runtime.laneStallThresholdNanos(), runtime.nanoTime());
        this.stallReports = runtime.laneStallCounter();
    }

    /**
     * Logs a rebind waiting to be logged, then updates the stall watch.
     *
     * @return true if the lane is stalled
     */
    public boolean observe(long now) {
        String rebind = binding.takeUnloggedRebind();
        if (rebind != null) {
            RuntimeLog.logSafely(System.Logger.Level.INFO, rebind + " (" + binding.rebinds() + " rebind(s) so far)");
        }
        if (runtime.isClosed()) {
            return false; // a closed runtime's lanes have nothing left to run: what its teardown left queued is not work
        }
        StallWatch.Seen seen = stallWatch.observe(now, lane.drives(), lane.queued() > 0);
        if (seen == StallWatch.Seen.NEWLY_STALLED) {
            stallReports.incrementAndGet();
            long undriven = now - stallWatch.driveSeenAtNanos();
            RuntimeLog.logSafely(System.Logger.Level.WARNING, "lane '" + lane.name() + "' has " + lane.queued()
                    + " actor(s) with " + lane.queuedLetters() + " letter(s) queued and "
                    + (binding.everBound()
                            ? "has not been driven for " + undriven / 1_000_000 + " ms: its host stopped calling back?"
                            : "no host thread has driven it yet (" + undriven / 1_000_000 + " ms): nothing runs its"
                                    + " actors until one calls drive"));
            RuntimeEvents.laneDriveStall(lane.name(), lane.queued(), lane.queuedLetters(), undriven);
        }
        return seen != StallWatch.Seen.NOT_STALLED;
    }

    public Snapshot.LaneRow row(long now) {
        boolean stalled = observe(now);
        List<Long> bands = new ArrayList<>(RunQueue.BANDS);
        boolean closed = runtime.isClosed(); // as the workers' queues: 0 once closed, whatever the teardown left behind
        for (int band = 0; band < RunQueue.BANDS; band++) {
            bands.add(closed ? 0 : lane.queue().depth(band));
        }
        Thread bound = binding.boundThread();
        long lastWork = lane.counters().lastWorkDriveNanos();
        return new Snapshot.LaneRow(lane.name(), bound == null ? null : bound.getName(), lane.drives(), lane.turns(),
                Math.max(0, now - stallWatch.driveSeenAtNanos()), lastWork == 0 ? -1 : Math.max(0, now - lastWork),
                List.copyOf(bands), lane.queuedLetters(), binding.rebinds(), stalled);
    }
}
