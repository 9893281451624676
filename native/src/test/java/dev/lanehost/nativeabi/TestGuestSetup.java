package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;

/**
 * The test plugin's Java side (native/src/test/c/guest/guest_plugin.c): each instance owns an actor keeping a sum of
 * its own, behind the gate "add", and a gate "fault" whose handler overflows its stack and catches the error, again
 * and again: HotSpot finds a stack overflow by a SIGSEGV on a guard page, so this shows the JVM's own signal handling
 * survives the host's handlers.
 */
public final class TestGuestSetup implements GuestSetup {
    @Override
    public void setup(GuestInstance instance) {
        long[] sum = {0};
        ActorRef actor = instance.own(instance.runtime().spawn(instance.exported("sum"), () -> (context, message) -> { }));
        instance.exportGate("add", CallGate.open(actor, (context, args) -> sum[0] += ((Number) args).longValue()));
        instance.exportGate("fault", CallGate.open(actor, (context, args) -> stackOverflows(((Number) args).longValue())));
    }

    /** Overflows the stack {@code count} times, each caught: each overflow is a SIGSEGV HotSpot turns into the error. */
    private static long stackOverflows(long count) {
        long caught = 0;
        for (long i = 0; i < count; i++) {
            try {
                deeper(0);
            } catch (StackOverflowError expected) {
                caught++;
            }
        }
        return caught;
    }

    private static long deeper(long depth) {
        return deeper(depth + 1) + 1;
    }
}
