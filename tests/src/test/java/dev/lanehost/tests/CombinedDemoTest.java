package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.samples.AudioRing;
import dev.lanehost.samples.AudioThread;
import dev.lanehost.samples.CombinedDemo;
import dev.lanehost.samples.Consistency;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main demo's core ({@link CombinedDemo}) for a short while, with the built-in audio thread: the final counts
 * must agree with each other exactly (every input event answered and handled once, every NPC move handled, every
 * lane turn accounted for, every audio sample written read and right), whatever the timing was.
 */
class CombinedDemoTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void theFinalCountsOfAShortRunAgreeWithEachOther(@TempDir Path directory) throws IOException {
        CombinedDemo.Report report;
        try (CombinedDemo demo = CombinedDemo.start(new CombinedDemo.Settings(AudioRing.Source.THREAD, null, directory))) {
            assertTrue(demo.audioProducer() instanceof AudioThread);
            await("frames, input events, NPC moves and audio", () -> {
                CombinedDemo.Status s = demo.status();
                return s.frames() >= 30 && s.inputOk() >= 10 && s.npcMoves() >= 20 && s.audio().samplesRead() >= 24_000;
            });
            report = demo.finish();
        }

        assertNull(Consistency.check(report), () -> Consistency.check(report));
        assertTrue(report.frames().frames() >= 30);
        assertTrue(report.run().eventsOk() >= 10);
        assertTrue(report.npcHandled() >= 20);
        assertTrue(report.audio().samplesRead() >= 24_000);
        assertEquals(0, report.frames().failedDrives());
        assertEquals(0, report.run().firstFailureStatus(), "every input event answered OK");
    }

    @Test
    void theConsistencyCheckNamesAnNpcMoveThatWasNotHandled(@TempDir Path directory) throws IOException {
        CombinedDemo.Report report;
        try (CombinedDemo demo = CombinedDemo.start(new CombinedDemo.Settings(AudioRing.Source.THREAD, null, directory))) {
            await("a few frames", () -> demo.status().frames() >= 5);
            report = demo.finish();
        }
        CombinedDemo.Report lostOne = new CombinedDemo.Report(report.run(), report.frames(), report.inputHandled(),
                report.npcSent() + 1, report.npcHandled(), report.drainedTurns(), report.laneTurns(), report.audio(),
                report.audioSource(), report.periodFrames(), report.sampleRate(), report.jackFallback());

        assertNull(Consistency.check(report));
        String problem = Consistency.check(lostOne);
        assertNotNull(problem);
        assertTrue(problem.startsWith("NPC moves: " + (report.npcSent() + 1) + " sent"), problem);
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not reached within " + DEADLINE + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
