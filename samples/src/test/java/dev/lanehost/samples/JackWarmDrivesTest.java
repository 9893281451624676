package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostRing;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lanehost client's drive-path warm-up: before activation, its own C thread drives a scratch lane through the
 * table and runs the letters waiting there. Needs jackd and the JACK host library (skipped, with the reason, without).
 */
class JackWarmDrivesTest {
    @Test
    void theWarmUpThreadDrivesTheScratchLaneAndRunsItsLetters() throws Exception {
        String unavailable = JackAudio.unavailableReason();
        assumeTrue(unavailable == null, () -> "JACK is not available here: " + unavailable);
        String name = "lanehost-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JackServer server;
        try {
            server = JackServer.start(name, 48_000, 128, Files.createTempDirectory("lanehost-warm-test").resolve("jackd.log"),
                    Duration.ofSeconds(20));
        } catch (IOException e) {
            assumeTrue(false, "jackd did not start: " + e.getMessage());
            return;
        }
        try (server;
             ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             HostRing ring = abi.exportRing("audio-out", 64 * 1024)) {
            abi.exportLane(runtime.registerLane("audio"));
            abi.exportLane(runtime.registerLane("warm"));
            AtomicLong handled = new AtomicLong();
            ActorRef actor = runtime.spawnOnLane("warm", "warm", () -> (context, message) -> handled.incrementAndGet());
            for (int i = 0; i < 50; i++) {
                actor.tell(i);
            }
            try (JackClient client = JackClient.openLaneHost(abi.table(), name, "lanehost", "audio", "audio-out", 8, 440)) {
                long turns = client.warmDrives("warm", 200, 0);
                assertTrue(turns >= 50, "the 50 letters ran in the warm-up's drives (and the actor's start turn): " + turns);
                assertEquals(50, handled.get());
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> client.warmDrives("no-such-lane", 1, 0));
                assertTrue(refused.getMessage().contains("no-such-lane"), refused.getMessage());
                assertEquals(0, client.stats().callbacks(), "not activated: JACK ran no callback");
            }
        }
    }
}
