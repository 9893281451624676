package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Reading a thread's scheduling back from /proc: fixtures for the parsing, this JVM's own thread for the reading. */
class ThreadSchedulingTest {
    /** A real stat line of a JACK client's process thread under jackd -R -P 70 (fields 40 and 41: 69 and 1). */
    private static final String FIFO = "4242 (jack (client)) S 4200 4200 1 0 -1 1077936192 90 0 0 0 12 3 0 0 -70 0 9 0 2718 "
            + "3070021632 65000 18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 -1 1 69 1 0 0 0 0 0 0 0 0 0 0 0";

    @Test
    void readsPolicyAndPriorityAfterACommandNameWithSpacesAndParentheses() {
        ThreadScheduling scheduling = ThreadScheduling.parse(FIFO);
        assertEquals(new ThreadScheduling("SCHED_FIFO", 69), scheduling);
        assertTrue(scheduling.realtime());
        assertEquals("SCHED_FIFO 69", scheduling.toString());
    }

    @Test
    void aStatLineWithoutACommandNameOrTooShortIsRefusedByName() {
        assertThrows(IllegalArgumentException.class, () -> ThreadScheduling.parse("4242 S 1 2 3"));
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class, () -> ThreadScheduling.parse("4242 (x) S 1 2 3"));
        assertTrue(tooShort.getMessage().contains("field 41"), tooShort.getMessage());
    }

    @Test
    void thisJvmsMainTestThreadReadsBackAsAnOrdinaryThread() throws Exception {
        Path self = Path.of("/proc/thread-self/stat");
        assumeTrue(Files.isReadable(self), "Linux /proc is there");
        ThreadScheduling scheduling = ThreadScheduling.parse(Files.readString(self));
        // Nobody raised the test's thread to a real-time policy; its priority then reads 0.
        assumeTrue(!scheduling.realtime(), "the test runs without a real-time policy");
        assertEquals(0, scheduling.priority());
        assertFalse(scheduling.policy().isEmpty());
    }
}
