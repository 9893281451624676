package dev.lanehost.lanes.lane;

/**
 * A lane's stall watch, kept by observers so that a drive never reads the clock just to be watched: a
 * change in the drive count since the last look counts as "driven now", and a lane is stalled when work
 * has waited the whole threshold with no drive in that time.
 *
 * <p>Observers only (snapshots, metrics, the HOSTED timer thread, drains); guarded by {@code this}.
 */
public final class StallWatch {
    /** What one look found. */
    public enum Seen { NOT_STALLED, STALLED, NEWLY_STALLED }

    private final long thresholdNanos;
    private long observedDrives;
    private long observedAtNanos;
    /** When an observer first saw work queued since the queue was last seen empty; -1 if it is empty. */
    private long workSeenSinceNanos = -1;
    private boolean reportedStalled;

    public StallWatch(long thresholdNanos, long now) {
        this.thresholdNanos = thresholdNanos;
        this.observedAtNanos = now;
    }

    /** One look at the lane: its drive count and whether work is queued, at {@code now}. */
    public synchronized Seen observe(long now, long drives, boolean hasWork) {
        if (drives != observedDrives) {
            observedDrives = drives;
            observedAtNanos = now;
        }
        if (!hasWork) {
            workSeenSinceNanos = -1;
        } else if (workSeenSinceNanos < 0) {
            workSeenSinceNanos = now;
        }
        boolean stalled = hasWork && now - Math.max(observedAtNanos, workSeenSinceNanos) >= thresholdNanos;
        boolean newly = stalled && !reportedStalled;
        reportedStalled = stalled;
        return newly ? Seen.NEWLY_STALLED : stalled ? Seen.STALLED : Seen.NOT_STALLED;
    }

    /** When an observer last saw the drive count change (or the watch began). */
    public synchronized long driveSeenAtNanos() {
        return observedAtNanos;
    }
}
