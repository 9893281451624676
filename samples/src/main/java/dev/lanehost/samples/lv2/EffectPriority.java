package dev.lanehost.samples.lv2;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.affinity.SchedClass;
import dev.lanehost.samples.ThreadScheduling;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The effect thread's priority, chosen once the host's audio thread runs (the effect has seen frames): real-time
 * below it where the host's audio thread is real-time and the system allows it, else the thread's normal priority,
 * said in the log either way.
 *
 * <p>Why look first: a real-time effect thread beside a host whose audio thread is not real-time (jackd without -R)
 * would preempt the very thread it feeds. The host's audio thread is any real-time thread of the process other than
 * the effect's own; the effect takes SCHED_FIFO 1, the lowest, which is below all of them.
 */
final class EffectPriority {
    private static final int REALTIME_PRIORITY = 1;
    private static final System.Logger LOG = System.getLogger("dev.lanehost.samples.lv2");

    private EffectPriority() {
    }

    /** Applies the rule to the calling thread (the effect's worker) and logs what it obtained. */
    static void choose(String instance) {
        int host = highestOtherRealtimePriority();
        if (host <= REALTIME_PRIORITY) {
            LOG.log(System.Logger.Level.INFO, "lanehost LV2 " + instance + ": the host has no real-time audio thread"
                    + (host < 0 ? " (unreadable: /proc/self/task)" : "") + ", so the effect's thread keeps its normal "
                    + "priority (a real-time one would preempt the host's audio thread)");
            return;
        }
        PriorityResult result = PriorityPolicy.realtime(SchedClass.FIFO, REALTIME_PRIORITY, 0)
                .applyToCurrentThread(Affinity.system());
        if (result.isApplied()) {
            LOG.log(System.Logger.Level.INFO, "lanehost LV2 " + instance + ": the effect's thread runs SCHED_FIFO "
                    + REALTIME_PRIORITY + ", below the host's real-time audio thread (priority " + host + ")");
        } else {
            LOG.log(System.Logger.Level.WARNING, "lanehost LV2 " + instance + ": the effect's thread keeps its normal "
                    + "priority, the system refused real-time (" + result + "); a loaded machine may hold it off "
                    + "the CPU for longer than the lead");
        }
    }

    /** The highest real-time priority of the process's threads but this one; 0 if none is real-time, -1 unreadable. */
    private static int highestOtherRealtimePriority() {
        String self = Long.toString(currentTid());
        int highest = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                if (task.getFileName().toString().equals(self)) {
                    continue;
                }
                try {
                    ThreadScheduling scheduling = ThreadScheduling.parse(Files.readString(task.resolve("stat")));
                    if (scheduling.realtime()) {
                        highest = Math.max(highest, scheduling.priority());
                    }
                } catch (IOException ended) {
                    // the thread ended while we looked: it is nobody's audio thread
                }
            }
        } catch (IOException unreadable) {
            return -1;
        }
        return highest;
    }

    /** The calling thread's kernel id, from /proc/thread-self (a link to /proc/<pid>/task/<tid>). */
    private static long currentTid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        } catch (IOException | NumberFormatException unreadable) {
            return -1;
        }
    }
}
