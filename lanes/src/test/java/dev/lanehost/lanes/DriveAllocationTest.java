package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * A host's real-time callback must not feed the GC: a drive that runs a turn allocates nothing. Each test measures
 * several windows of drives and takes the least: an allocation on the drive's path shows in every window, while the
 * JIT's own work (a compilation finishing, a deoptimization rebuilding an object) now and then shows in one.
 */
class DriveAllocationTest {
    private static final int WARM_UP_DRIVES = 60_000;
    private static final int MEASURED_DRIVES = 10_000;
    private static final int WINDOWS = 5;

    @Test
    void tenThousandDrivesThatEachRunATurnAllocateNothingOnTheDrivingThread() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            Object message = "tick";
            ActorRef actor = runtime.spawnOnLane("audio", "counter", () -> (context, m) -> { });
            // Sending allocates a letter, so every letter is queued before anything is measured.
            for (int i = 0; i < WARM_UP_DRIVES + WINDOWS * MEASURED_DRIVES; i++) {
                actor.tell(message);
            }
            DriveCounts counts = new DriveCounts();
            lane.drive(1, counts); // the start turn
            long turns = 0;
            for (int i = 0; i < WARM_UP_DRIVES; i++) {
                lane.drive(1, counts);
                turns += counts.turns();
            }
            long allocated = leastAllocatedByWindows(threads, lane, counts);
            turns += WINDOWS * MEASURED_DRIVES;

            assertEquals(0, allocated, "bytes allocated by " + MEASURED_DRIVES + " drives, in the least of " + WINDOWS + " windows");
            assertEquals(WARM_UP_DRIVES + WINDOWS * MEASURED_DRIVES, turns);
            assertEquals(0, lane.queuedLetters());
        }
    }

    /** The least any window of {@link #MEASURED_DRIVES} drives allocated; every drive must return OK and run one turn. */
    private static long leastAllocatedByWindows(com.sun.management.ThreadMXBean threads, ExecutionLane lane, DriveCounts counts) {
        long least = Long.MAX_VALUE;
        for (int window = 0; window < WINDOWS; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            int failures = measuredDrives(lane, counts);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, failures, "every drive returned OK and ran one turn");
            least = Math.min(least, allocated);
        }
        return least;
    }

    /** Its own method, so the measured loop compiles like a host's callback would. */
    private static int measuredDrives(ExecutionLane lane, DriveCounts counts) {
        int failures = 0;
        for (int i = 0; i < MEASURED_DRIVES; i++) {
            if (lane.drive(1, counts) != 0 || counts.turns() != 1) {
                failures++;
            }
        }
        return failures;
    }
}
