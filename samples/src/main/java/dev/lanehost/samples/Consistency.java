package dev.lanehost.samples;

/**
 * What must hold between the main demo's final counts, whatever the timing was: every input event answered and
 * handled once, every NPC move handled, every lane turn accounted for by a frame or the final drain, every sample
 * written read and right, every period either written or counted as an overrun.
 */
public final class Consistency {
    private Consistency() {
    }

    /** Null if the report is consistent, else the first thing that is not, in one sentence. */
    public static String check(CombinedDemo.Report r) {
        FrameStats f = r.frames();
        AudioRing.Counts a = r.audio();
        AudioProducer.Counts p = a.producer();
        long histogram = 0;
        for (long frames : f.turnsHistogram()) {
            histogram += frames;
        }
        if (histogram != f.frames() || f.frames() != r.run().frames().size()) {
            return "the turns-per-frame histogram counts " + histogram + " frames of " + f.frames();
        }
        if (f.failedDrives() != 0) {
            return f.failedDrives() + " drives were not OK";
        }
        if (r.run().eventsOk() != r.run().eventsSent() || r.inputHandled() != r.run().eventsOk()) {
            return "input events: " + r.run().eventsSent() + " sent, " + r.run().eventsOk() + " answered OK, "
                    + r.inputHandled() + " handled";
        }
        if (r.npcHandled() != r.npcSent()) {
            return "NPC moves: " + r.npcSent() + " sent, " + r.npcHandled() + " handled";
        }
        if (r.laneTurns() != f.turns() + r.drainedTurns()) {
            return "the lane ran " + r.laneTurns() + " turns, the frames " + f.turns() + " and the final drain " + r.drainedTurns();
        }
        if (r.laneTurns() != 1 + r.inputHandled() + r.npcHandled()) {
            return "the lane ran " + r.laneTurns() + " turns for 1 start, " + r.inputHandled() + " input events and "
                    + r.npcHandled() + " NPC moves";
        }
        if (a.firstMismatch() >= 0) {
            return "audio sample " + a.firstMismatch() + " was " + a.mismatchValue() + ", not the sweep's";
        }
        if (a.samplesRead() != p.samplesWritten()) {
            return "audio: " + p.samplesWritten() + " samples written, " + a.samplesRead() + " read";
        }
        if (p.samplesWritten() != (p.periods() - p.ringOverruns()) * r.periodFrames()) {
            return "audio: " + p.samplesWritten() + " samples written in " + p.periods() + " periods of " + r.periodFrames()
                    + " frames with " + p.ringOverruns() + " dropped";
        }
        if (a.timingRecords() != p.periods() - p.timingOverruns()) {
            return "audio: " + a.timingRecords() + " timing records for " + p.periods() + " periods, " + p.timingOverruns()
                    + " dropped";
        }
        return null;
    }
}
