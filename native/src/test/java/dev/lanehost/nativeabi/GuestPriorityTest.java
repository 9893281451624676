package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.SchedClass;
import dev.lanehost.callgate.CallStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The guest runtime's priority as a bundle's lanehost.conf names it (a system property). */
class GuestPriorityTest {

    @AfterEach
    void clear() {
        System.clearProperty(GuestPriority.PROPERTY);
    }

    @Test
    void withoutThePropertyNothingIsAsked() throws Exception {
        assertEquals(PriorityPolicy.none(), GuestPriority.fromProperty());
    }

    @Test
    void eachFormNamesItsPolicy() throws Exception {
        System.setProperty(GuestPriority.PROPERTY, "fifo:1");
        assertEquals(PriorityPolicy.realtime(SchedClass.FIFO, 1, 0), GuestPriority.fromProperty());
        System.setProperty(GuestPriority.PROPERTY, "rr:3:5");
        assertEquals(PriorityPolicy.realtime(SchedClass.RR, 3, 5), GuestPriority.fromProperty());
        System.setProperty(GuestPriority.PROPERTY, "nice:4");
        assertEquals(PriorityPolicy.nice(4), GuestPriority.fromProperty());
    }

    @Test
    void aMalformedValueIsRefusedWithTheFormsItTakes() {
        for (String value : new String[] {"fifo", "fifo:x", "fifo:0", "idle:1"}) {
            System.setProperty(GuestPriority.PROPERTY, value);
            EmbedFailure failure = assertThrows(EmbedFailure.class, GuestPriority::fromProperty, value);
            assertEquals(CallStatus.INVALID_ARGUMENT, failure.status(), value);
            assertTrue(failure.getMessage().contains("use fifo:<1-99>"), failure.getMessage());
        }
    }
}
