package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The duplex sample end to end on a private jackd (dummy driver, {@code --no-realtime}): the sweep client's output
 * comes in through the duplex client's input port, goes through the effect actor and out of its output port. Needs
 * jackd and the JACK host library; skipped, with the reason, without them.
 */
class AudioDuplexTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int LEAD = 4;
    private static final int PERIOD = 128;

    @Test
    void theOutputIsTheEffectOfTheInputAndAHeldEffectMeansCountedUnderrunsWhoseLateFramesAreDroppedSoTheDelayHolds()
            throws Exception {
        String unavailable = JackAudio.unavailableReason();
        assumeTrue(unavailable == null, () -> "JACK is not available here: " + unavailable);
        Path directory = Files.createTempDirectory("lanehost-duplex-test");
        String name = "lanehost-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JackServer server;
        try {
            server = JackServer.start(name, 48_000, PERIOD, directory.resolve("jackd.log"), Duration.ofSeconds(20));
        } catch (IOException e) {
            assumeTrue(false, "jackd did not start: " + e.getMessage());
            return;
        }
        try (server;
             ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             AudioDuplex duplex = AudioDuplex.start(runtime, abi, name, AudioDuplex.LeadChoice.fixed(LEAD), null, 0)) {
            DuplexMonitor monitor = duplex.monitor();
            awaitWhileChecking(duplex, () -> monitor.matched() >= 24_000, "half a second of effect output checked");

            duplex.effect().hold(true);
            // A tick that began after the hold moves nothing, and the one before it has ended: from here on nothing
            // goes into the playback ring.
            long ticks = duplex.effect().ticks();
            awaitWhileChecking(duplex, () -> duplex.effect().ticks() > ticks, "a tick of the held effect");
            long underrunsBefore = duplex.playbackUnderruns();
            long silenceBefore = monitor.underrunFrames();
            long playablePeriods = duplex.playbackFillFrames() / PERIOD;
            long callbacks = duplex.duplexClient().stats().callbacks();
            awaitWhileChecking(duplex, () -> duplex.duplexClient().stats().callbacks() >= callbacks + 100,
                    "100 callbacks while the effect is held: the callback does not wait for Java");
            long heldUnderruns = duplex.playbackUnderruns() - underrunsBefore;
            // Each of the 100 played a whole period from the ring or counted an underrun; the last may not have counted yet.
            assertTrue(heldUnderruns >= 100 - playablePeriods - 1, "underruns counted in the ring's header while held: "
                    + heldUnderruns + ", with " + playablePeriods + " periods left in the playback ring");
            duplex.effect().hold(false);

            long checked = monitor.matched();
            awaitWhileChecking(duplex, () -> monitor.matched() >= checked + 24_000, "the effect's output checked again after the hold");
            AudioDuplex.Result result = duplex.stop();

            assertEquals(0, monitor.mismatches(), monitor.firstMismatch());
            assertTrue(monitor.peakOutput() > 0.1f, "the checked output is the sweep's, not silence: peak " + monitor.peakOutput());
            assertTrue(monitor.underrunFrames() - silenceBefore >= (heldUnderruns - 1) * PERIOD,
                    "the held periods were played as silence (checked to be 0 frame by frame)");
            assertEquals(0, result.captureOverruns());
            assertEquals(0, result.monitorOverruns());
            assertEquals(result.duplex().samplesWritten(), monitor.captured(), "every captured frame was logged");
            assertEquals(monitor.captured(), result.framesProcessed(), "every captured frame went through the effect");
            assertEquals(result.framesProcessed() + result.silenceFrames(),
                    monitor.matched() + monitor.insertedPlayed() + monitor.droppedLate() + result.playbackLeft(),
                    "every frame written to the playback ring was played, dropped late, or is still in it");
            assertEquals(result.duplex().underrunFrames(), monitor.underrunFrames(), "underrun_frames counts the silence logged");
            assertEquals(result.duplex().droppedLateFrames(), monitor.droppedLate(), "dropped_late_frames counts the drops logged");
            assertTrue(monitor.droppedLate() >= (heldUnderruns - 1) * PERIOD, "the hold's late frames were dropped: "
                    + monitor.droppedLate());
            assertEquals((long) LEAD * PERIOD, monitor.firstDelay(), "the first output came a lead after its input");
            assertEquals(monitor.expectedDelay(), monitor.lastDelay(), "the delay follows the silence played and the frames dropped");
            assertEquals(monitor.firstDelay(), monitor.lastDelay(), "the hold's silence was won back: the delay is the lead again");
            assertEquals(monitor.firstDelay(), monitor.maxDelay(), "no frame was played later than a lead after its input");
        }
    }

    /** Polls {@code condition} with a deadline, checking the monitor ring meanwhile; not a sleep to synchronise. */
    private static void awaitWhileChecking(AudioDuplex duplex, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for: " + what);
            duplex.drain();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        duplex.drain();
    }
}
