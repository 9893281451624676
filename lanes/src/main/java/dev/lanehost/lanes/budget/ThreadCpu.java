package dev.lanehost.lanes.budget;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A thread's CPU time, which the HOSTED budget watch reads on its rare paths (a yield request, a disruption
 * deadline) to tell a turn that runs on from a turn whose thread the machine held off the CPU. SINGLE_THREAD reads it
 * around the turns of an actor that has a strike; never on the path of a turn within budget.
 */
public interface ThreadCpu {
    /** The CPU time could not be read: the thread is unknown, has ended, is virtual, or the JVM does not measure it. */
    long UNKNOWN = -1;

    /** The CPU time {@code thread} has used so far in nanoseconds, or {@link #UNKNOWN}. Never throws. */
    long nanos(Thread thread);

    /** The JVM's own measure ({@link ThreadMXBean#getThreadCpuTime(long)}: the kernel's per-thread CPU clock on Linux). */
    ThreadCpu JVM = thread -> {
        if (thread == null || thread.isVirtual()) {
            return UNKNOWN;
        }
        try {
            long nanos = Mx.THREADS.getThreadCpuTime(thread.threadId());
            return nanos < 0 ? UNKNOWN : nanos;
        } catch (RuntimeException | LinkageError unsupported) { // a LinkageError too: the management library may not load
            return UNKNOWN;
        }
    };

    /** Loaded at the first read, not with every runtime: the management bean costs ~20 ms once per JVM. */
    final class Mx {
        static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        private Mx() {
        }
    }
}
