package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The list a gate keeps of its parked callers: any may leave in any order, and a close sees those still there. */
class ParkedCallersTest {
    @Test
    void callersLeaveFromAnyPlaceAndLeavingTwiceIsHarmless() {
        ParkedCallers parked = new ParkedCallers();
        GateCall a = new GateCall();
        GateCall b = new GateCall();
        GateCall c = new GateCall();
        GateCall never = new GateCall();
        parked.add(a);
        parked.add(b);
        parked.add(c);
        assertEquals(List.of(c, b, a), parked.snapshot());
        parked.remove(b); // the middle
        assertEquals(List.of(c, a), parked.snapshot());
        parked.remove(never); // never registered: a caller whose park was cut short
        parked.remove(c); // the head
        assertEquals(List.of(a), parked.snapshot());
        parked.remove(a);
        parked.remove(a);
        assertEquals(List.of(), parked.snapshot());
        parked.add(b); // a call reused after it left
        parked.add(a);
        assertEquals(List.of(a, b), parked.snapshot());
    }
}
