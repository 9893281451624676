package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A freed guest instance leaves nothing of its rings in the shared host ABI: hosts make instances without end. */
class GuestInstanceFreeTest {

    @Test
    void freeingAnInstanceTakesItsRingNamesOffTheTable() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            for (int n = 1; n <= 3; n++) {
                GuestInstance instance = new GuestInstance(runtime, abi, "Plugin#" + n, Map.of());
                HostRing capture = instance.exportRing("capture", 4096);
                HostRing playback = instance.exportRing("playback", 4096);

                assertNull(instance.free(), "every step of the free ran");

                assertFalse(capture.isMemoryLive(), "no host held the capture ring");
                assertFalse(playback.isMemoryLive(), "no host held the playback ring");
                assertEquals(Map.of(), abi.rings, "ring names left in the table after instance " + n);
            }
        }
    }

    @Test
    void aRingStillOpenKeepsItsName() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            HostRing ring = abi.exportRing("shared", 4096);

            abi.forgetClosedRing("shared");

            assertEquals(Map.of("shared", ring), abi.rings);
            ring.close();
        }
    }
}
