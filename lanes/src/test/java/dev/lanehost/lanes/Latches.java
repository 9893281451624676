package dev.lanehost.lanes;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** For turns that hold their thread until a test lets go: a bounded wait that fails loudly. */
final class Latches {
    static final long PATIENCE_SECONDS = 30;

    private Latches() {
    }

    /** Waits for {@code latch} up to {@link #PATIENCE_SECONDS}; throws AssertionError if it stays closed. */
    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released within " + PATIENCE_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
