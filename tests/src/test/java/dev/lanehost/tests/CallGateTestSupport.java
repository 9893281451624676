package dev.lanehost.tests;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

final class CallGateTestSupport {
    private CallGateTestSupport() {
    }

    /** Waits for a condition with a deadline, never a fixed sleep. */
    static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 30 s");
            }
            Thread.yield();
        }
    }
}
