package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.fail;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * Asserts that a step allocates nothing once compiled: each round runs it many times and asks the JVM how many bytes
 * this thread allocated; the first round that allocated none passes (warm-up is whatever the JIT needs, up to a
 * generous number of rounds), and none doing so fails.
 */
final class AllocationCheck {
    private static final int ROUNDS = 60;
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationCheck() {
    }

    static void assertAllocationFree(String what, int stepsPerRound, Runnable step) {
        long allocated = -1;
        for (int round = 0; round < ROUNDS; round++) {
            allocated = allocatedBy(stepsPerRound, step);
            if (allocated == 0) {
                return;
            }
        }
        fail(what + " still allocated " + allocated + " bytes per " + stepsPerRound + " steps after " + ROUNDS + " rounds");
    }

    static long allocatedBy(int steps, Runnable step) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < steps; i++) {
            step.run();
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
