package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallStatusTest {
    @Test
    void everyCodeMapsBackToItsStatusAndCodesAreUnique() {
        Set<Integer> codes = new HashSet<>();
        for (CallStatus status : CallStatus.values()) {
            assertEquals(status, CallStatus.ofCode(status.code()), status.name());
            assertEquals(true, codes.add(status.code()), "code " + status.code() + " is used twice");
        }
        assertNull(CallStatus.ofCode(-1));
        assertNull(CallStatus.ofCode(Integer.MAX_VALUE));
    }

    @Test
    void codesAreTheStableNumbersCSees() {
        assertEquals(0, CallStatus.OK.code());
        assertEquals(7, CallStatus.REFUSED.code());
        assertEquals(9, CallStatus.INVALID_ARGUMENT.code());
        assertEquals(10, CallStatus.CLOSED.code());
        assertEquals(11, CallStatus.INTERNAL_ERROR.code());
    }
}
