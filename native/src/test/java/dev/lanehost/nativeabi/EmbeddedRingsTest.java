package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A C-first program's rings: the setup exports them and returns, so no Java code is left to close them; stopping
 * the embedded runtime lets Java's ownership go, and a ring's memory lives on only while a host holds a reference.
 * (The embedded runtime's Java half is started here directly, as {@code lanehost_embed_start} does through JNI.)
 */
class EmbeddedRingsTest {
    @BeforeEach
    void forgetEarlierRings() {
        EmbedSetups.EXPORTED_RINGS.clear();
    }

    @Test
    void stopFreesTheRingsTheSetupLeftOpenOnceTheHostsReferenceIsReleased() {
        EmbeddedRuntime embedded = EmbeddedRuntime.start(EmbedSetups.Rings.class.getName(), HostAbiDescriptor.HOST_ABI_VERSION);
        assertEquals(CallStatus.OK.code(), embedded.status(), embedded.failure());
        HostRing audio = EmbedSetups.EXPORTED_RINGS.getFirst();
        assertTrue(audio.retain(), "a host looks the ring up: one reference");
        assertNull(embedded.stop());
        assertTrue(audio.isMemoryLive(), "the host still holds its reference: the memory stays");
        audio.release(); // the host's ring_release
        assertFalse(audio.isMemoryLive(), "Java let go at stop, the host now: freed");
    }

    @Test
    void aStartWhoseSetupThrowsAfterExportingARingFreesIt() {
        EmbeddedRuntime embedded = EmbeddedRuntime.start(EmbedSetups.RingsThenThrow.class.getName(),
                HostAbiDescriptor.HOST_ABI_VERSION);
        assertEquals(CallStatus.CALLBACK_FAILED.code(), embedded.status());
        assertFalse(EmbedSetups.EXPORTED_RINGS.getFirst().isMemoryLive());
    }
}
