package dev.lanehost.lanes.queue;

import java.util.concurrent.CountDownLatch;

/** Waiting on a latch from a thread whose interrupt belongs to someone else: the runtime's start and close. */
public final class Latches {
    private Latches() {
    }

    /** Waits for {@code latch}; an interrupt meanwhile does not end the wait, and is set again afterwards. */
    public static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
