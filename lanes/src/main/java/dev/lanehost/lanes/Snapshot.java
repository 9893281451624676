package dev.lanehost.lanes;

import java.util.List;

/**
 * What the runtime looked like at one moment, taken without ever waiting on (or locking) an actor: every
 * row is made of racy-but-safe scalars, and queue depths are counts kept as letters come and go.
 *
 * @param takenAtNanos the runtime clock when taken
 * @param actors       one row per live (or still tearing down) actor
 * @param lanes        one row per registered lane
 */
public record Snapshot(long takenAtNanos, List<ActorRow> actors, List<LaneRow> lanes) {

    /** What an actor was doing. */
    public enum ActorState { STARTING, READY, RUNNING, IDLE, HALTING }

    /**
     * @param queueDepth      letters waiting in the mailbox (a count, never a walk; exact when nobody is sending)
     * @param turns           turns completed
     * @param currentTurnNanos how long the current turn has been running, 0 if none. HOSTED times a turn from the
     *                        budget watch's first look at it (a turn reads no clock), so a turn younger than the
     *                        watch's look (up to half a fast budget, 5 ms by default) reads 0 too
     * @param strikes         turns in a row that ran past the slow budget (the turn budget halts the actor at its ceiling)
     */
    public record ActorRow(long id, String name, String placement, ActorState state, int queueDepth, long turns,
                           long currentTurnNanos, int strikes) {
    }

    /**
     * @param boundThread          name of the thread the lane is bound to, or null before its first drive
     * @param drives               drives so far
     * @param turns                turns run by those drives
     * @param nanosSinceDriveSeen  time since an observer last saw the drive count change (or, if it never
     *                             has, since registration): an upper bound on the time since the last drive
     * @param nanosSinceWorkDrive  time since the last drive that ran a turn, or -1 if none has
     * @param bandDepths           actors queued in each of the four bands
     * @param queuedLetters        letters waiting in the mailboxes of the lane's actors: its backlog
     * @param rebinds              times the lane was bound again after its first binding
     * @param stalled              work is queued and the lane has not been driven for the stall threshold
     */
    public record LaneRow(String name, String boundThread, long drives, long turns, long nanosSinceDriveSeen,
                          long nanosSinceWorkDrive, List<Long> bandDepths, long queuedLetters,
                          long rebinds, boolean stalled) {
    }

    /** A {@code ps}-style table for humans. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%6s  %-20s %-18s %-8s %6s %10s %10s %4s%n",
                "ID", "NAME", "PLACEMENT", "STATE", "QUEUE", "TURNS", "TURN-AGE", "STRK"));
        for (ActorRow row : actors) {
            out.append(String.format("%6d  %-20s %-18s %-8s %6s %10d %10s %4d%n", row.id(), clip(row.name(), 20),
                    clip(row.placement(), 18), row.state(), Integer.toString(row.queueDepth()),
                    row.turns(), row.currentTurnNanos() == 0 ? "-" : micros(row.currentTurnNanos()), row.strikes()));
        }
        if (!lanes.isEmpty()) {
            out.append(String.format("%nLANE                 %-22s %10s %10s %12s %12s %-16s %8s %7s %s%n",
                    "BOUND", "DRIVES", "TURNS", "LAST-DRIVE", "LAST-WORK", "BANDS 0/1/2/3", "LETTERS", "REBINDS", "STALLED"));
            for (LaneRow lane : lanes) {
                List<Long> b = lane.bandDepths();
                out.append(String.format("%-20s %-22s %10d %10d %12s %12s %-16s %8d %7d %s%n", clip(lane.name(), 20),
                        lane.boundThread() == null ? "(unbound)" : clip(lane.boundThread(), 22), lane.drives(), lane.turns(),
                        lane.drives() == 0 ? "never" : "<" + micros(lane.nanosSinceDriveSeen()),
                        lane.nanosSinceWorkDrive() < 0 ? "never" : micros(lane.nanosSinceWorkDrive()),
                        b.get(0) + "/" + b.get(1) + "/" + b.get(2) + "/" + b.get(3), lane.queuedLetters(), lane.rebinds(), lane.stalled() ? "STALLED" : "no"));
            }
        }
        return out.toString();
    }

    private static String clip(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }

    private static String micros(long nanos) {
        return nanos >= 1_000_000_000L ? String.format("%.1fs", nanos / 1e9) : String.format("%dus", nanos / 1000);
    }
}
