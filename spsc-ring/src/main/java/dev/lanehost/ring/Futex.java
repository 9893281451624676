package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Linux {@code futex(2)} on a 32-bit word of native memory, called through libc's {@code syscall(2)} with
 * FFM. The JDK has no futex of its own, and a C producer can wake a sleeping Java consumer (or a Java
 * producer a C consumer) only if both sleep and wake on the same word in the same way as
 * {@code lanehost_ring.h}. libc is in every JVM process, so the ring needs no library of its own for this.
 *
 * <p>The shared operations ({@code FUTEX_WAIT}, {@code FUTEX_WAKE}), not the {@code _PRIVATE} ones, as in
 * C: ring memory may be shared between processes, and a waiter and its waker must use the same kind.
 *
 * <p>The class initializes on the first wait or wake, so a ring that nobody waits on never links a downcall.
 */
final class Futex {
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;

    /** {@code SYS_futex} of this architecture, or -1 where this class cannot wait. */
    private static final long SYS_FUTEX = SystemCall.number(202, 98);
    /** {@code struct timespec}: two longs on every LP64 Linux. */
    private static final MemoryLayout TIMESPEC = MemoryLayout.structLayout(JAVA_LONG.withName("tv_sec"), JAVA_LONG.withName("tv_nsec"));

    private static final MethodHandle WAIT;
    private static final MethodHandle WAKE;

    static {
        if (SYS_FUTEX < 0) {
            WAIT = null;
            WAKE = null;
        } else {
            WAIT = SystemCall.handle(ADDRESS);
            WAKE = SystemCall.handle();
        }
    }

    private Futex() {
    }

    /** Whether this platform can wait: Linux on x86-64, aarch64 or riscv64. */
    static boolean isSupported() {
        return SYS_FUTEX >= 0;
    }

    /** What one waiting thread needs for its system call, allocated once so that waiting allocates nothing. */
    static final class Waiter {
        private final MemorySegment timeout = Arena.ofAuto().allocate(TIMESPEC);

        /**
         * Sleeps while the 32-bit word at {@code address} holds {@code expected}, for at most {@code nanos}.
         * The kernel compares the word before sleeping, so a change made before the call returns at once.
         * It also returns when woken, at the timeout and when a signal handler runs; the result does not say
         * which, because the caller re-checks the ring and the clock in every case.
         */
        void await(long address, int expected, long nanos) {
            timeout.set(JAVA_LONG, 0, nanos / 1_000_000_000L);
            timeout.set(JAVA_LONG, Long.BYTES, nanos % 1_000_000_000L);
            try {
                // The word's address goes as a number, not a segment: a segment argument would hold the ring's
                // arena open for the whole sleep, and closing a ring must not wait for its consumer to wake.
                long ignored = (long) WAIT.invokeExact(SYS_FUTEX, address, FUTEX_WAIT, (long) expected, timeout);
            } catch (Throwable e) {
                throw new IllegalStateException("futex wait failed", e);
            }
        }
    }

    /** Wakes every thread sleeping on the word at {@code address}. */
    static void wakeAll(long address) {
        try {
            long ignored = (long) WAKE.invokeExact(SYS_FUTEX, address, FUTEX_WAKE, (long) Integer.MAX_VALUE);
        } catch (Throwable e) {
            throw new IllegalStateException("futex wake failed", e);
        }
    }
}
