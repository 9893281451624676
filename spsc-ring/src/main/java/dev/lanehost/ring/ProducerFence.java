package dev.lanehost.ring;

import java.lang.invoke.MethodHandle;

/**
 * Linux {@code membarrier(2)}, private expedited: a full memory barrier in every other running thread of
 * this process, forced from outside by the kernel. A consumer about to sleep calls it (step 3 of the
 * waiting protocol in {@link SpscByteRing}'s javadoc) so that the producer's write path can look for a
 * waiter with a plain load instead of a locked read-modify-write on every write: the rare side pays a
 * system call so that the frequent side pays nothing, as in userspace RCU and folly's asymmetric barriers.
 * {@code lanehost_ring_fence_producer} in {@code lanehost_ring.h} does the same for C consumers; the
 * registration is per process, so either language's registration serves both.
 *
 * <p>Called through libc's {@code syscall(2)} with FFM, like {@link Futex}. The class initializes on a
 * consumer's first sleep: it registers this process for the command once, and if the kernel refuses
 * (before 4.14, or a seccomp filter) {@link #isSupported()} is false and nobody may sleep on a ring.
 */
final class ProducerFence {
    private static final int MEMBARRIER_CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final int MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;

    /** {@code SYS_membarrier} of this architecture, or -1 where this class cannot fence. */
    private static final long SYS_MEMBARRIER = SystemCall.number(324, 283);
    private static final MethodHandle MEMBARRIER;
    private static final boolean SUPPORTED;

    static {
        MethodHandle membarrier = null;
        boolean supported = false;
        if (SYS_MEMBARRIER >= 0) {
            membarrier = SystemCall.handle();
            supported = call(membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
        }
        MEMBARRIER = membarrier;
        SUPPORTED = supported;
    }

    private ProducerFence() {
    }

    /** Whether this process may fence its threads: Linux 4.14+ with membarrier allowed, on x86-64, aarch64 or riscv64. */
    static boolean isSupported() {
        return SUPPORTED;
    }

    /**
     * Returns once every other thread of this process has run a full memory barrier. Only after
     * {@link #isSupported()} said true.
     *
     * @throws IllegalStateException if the kernel refuses, which a registered process does not see
     */
    static void fenceOtherThreads() {
        if (call(MEMBARRIER, MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
            throw new IllegalStateException("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after this process registered for it");
        }
    }

    private static long call(MethodHandle membarrier, int command) {
        try {
            return (long) membarrier.invokeExact(SYS_MEMBARRIER, (long) command, 0L, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException("membarrier system call failed", e);
        }
    }
}
