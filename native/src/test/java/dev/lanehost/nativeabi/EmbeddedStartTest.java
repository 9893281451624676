package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import org.junit.jupiter.api.Test;

/** The statuses of an embedded start, in this JVM (EmbedFromCTest starts from C). */
class EmbeddedStartTest {
    @Test
    void aStartWhoseSetupRunsOutOfMemoryAnswersOutOfMemoryNotAFaultOfItsOwn() {
        EmbeddedRuntime embedded = EmbeddedRuntime.start(EmbedSetups.OutOfMemory.class.getName(),
                HostAbiDescriptor.HOST_ABI_VERSION);
        assertEquals(CallStatus.OUT_OF_MEMORY.code(), embedded.status(), embedded.failure());
        assertTrue(embedded.failure().contains("OutOfMemoryError"), embedded.failure());
    }

    @Test
    void aSetupClassNameWrittenAsAPathIsNamedAsOne() {
        for (String path : new String[] {"dev/lanehost/nativeabi/EmbedSetups$Frames", "dev.lanehost.Setup.class"}) {
            EmbeddedRuntime embedded = EmbeddedRuntime.start(path, HostAbiDescriptor.HOST_ABI_VERSION);
            assertEquals(CallStatus.INVALID_ARGUMENT.code(), embedded.status(), embedded.failure());
            assertTrue(embedded.failure().contains("is a path; give the class's binary name, with dots"), embedded.failure());
        }
    }
}
