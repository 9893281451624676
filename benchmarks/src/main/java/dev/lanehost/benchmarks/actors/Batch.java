package dev.lanehost.benchmarks.actors;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The end of one benchmark batch: each party arrives once, and the benchmark thread waits for all of them.
 * A batch that has not finished within {@link #DEADLINE_SECONDS} fails the run instead of hanging it (a lost
 * message, a dead dispatcher).
 */
final class Batch {
    /** Far longer than any batch takes here (the slowest, a million spawns, takes a few seconds). */
    static final long DEADLINE_SECONDS = 120;

    private final CountDownLatch remaining;
    private final String what;

    Batch(int parties, String what) {
        this.remaining = new CountDownLatch(parties);
        this.what = what;
    }

    void arrive() {
        remaining.countDown();
    }

    void await() throws InterruptedException {
        if (!remaining.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(what + ": " + remaining.getCount() + " parties had not arrived after "
                    + DEADLINE_SECONDS + " s");
        }
    }
}
