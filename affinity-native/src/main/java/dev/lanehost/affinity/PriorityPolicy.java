package dev.lanehost.affinity;

/**
 * The scheduling priority a runtime thread gives itself at start: "try a real-time class at this priority,
 * else this nice value; never fail the start; record what was obtained and why not".
 *
 * <ul>
 *   <li>{@link #none()}: the thread keeps what it was started with.</li>
 *   <li>{@link #realtime(SchedClass, int, int)}: {@code SCHED_FIFO} or {@code SCHED_RR} at a priority; if the
 *       kernel refuses (no {@code CAP_SYS_NICE} and {@code RLIMIT_RTPRIO} below the priority, a cgroup
 *       without a real-time budget), the fallback nice value instead.</li>
 *   <li>{@link #nice(int)}: a nice value in the normal class.</li>
 * </ul>
 *
 * <p>Only the calling thread changes, never the process: the JVM's GC and JIT threads and the host's keep
 * theirs. A thread the real-time thread starts begins in {@code SCHED_OTHER} ({@code SCHED_RESET_ON_FORK}).
 * Invalid values are refused when the policy is built, naming the value; what the kernel refuses when the
 * policy is applied comes back in the {@link PriorityResult}, never as an exception.
 */
public sealed interface PriorityPolicy {
    /** The nice values the kernel accepts (setpriority(2)). */
    int NICE_MIN = -20;
    int NICE_MAX = 19;

    /** Asks for nothing: applying it only reads back what the thread has. */
    static PriorityPolicy none() {
        return None.INSTANCE;
    }

    /**
     * {@code schedClass} at {@code priority}, else {@code fallbackNice}. The range is the kernel's
     * ({@code sched_get_priority_min/max}, through {@link Affinity#system()}); without the library, Linux's
     * documented 1..99.
     *
     * @throws IllegalArgumentException naming the value: a class other than FIFO or RR, a priority outside
     *                                  the class's range, a nice outside -20..19
     */
    static PriorityPolicy realtime(SchedClass schedClass, int priority, int fallbackNice) {
        return new Realtime(schedClass, priority, fallbackNice);
    }

    /**
     * The nice value {@code nice} in the normal class. Raising it (lower priority) is always allowed;
     * lowering it below the current value needs {@code CAP_SYS_NICE} or {@code RLIMIT_NICE}.
     *
     * @throws IllegalArgumentException if {@code nice} is outside -20..19 (named)
     */
    static PriorityPolicy nice(int nice) {
        return new Nice(nice);
    }

    /**
     * Applies the policy to the calling thread. Never throws for anything the kernel or the platform
     * refuses, nor without the library: the result says what the thread has and why.
     */
    PriorityResult applyToCurrentThread(Affinity affinity);

    /** Nothing requested. */
    record None() implements PriorityPolicy {
        static final None INSTANCE = new None();

        @Override
        public PriorityResult applyToCurrentThread(Affinity affinity) {
            return new PriorityResult(this, PriorityResult.Outcome.NOT_REQUESTED, affinity.currentThreadPriority(),
                    AffinityStatus.OK, "not requested");
        }

        @Override
        public String toString() {
            return "no priority";
        }
    }

    /** A real-time class and priority, with a nice value to fall back to. */
    record Realtime(SchedClass schedClass, int priority, int fallbackNice) implements PriorityPolicy {
        public Realtime {
            if (schedClass == null) {
                throw new IllegalArgumentException("the real-time class is null: give SchedClass.FIFO or SchedClass.RR");
            }
            if (!schedClass.isRealtime()) {
                throw new IllegalArgumentException(schedClass + " is not a real-time class: give SchedClass.FIFO or SchedClass.RR"
                        + " (for the normal class, PriorityPolicy.nice(n))");
            }
            PriorityRange range = Affinity.system().priorityRange(schedClass).orElse(PriorityRange.LINUX_REALTIME);
            if (!range.contains(priority)) {
                throw new IllegalArgumentException(schedClass + " priority " + priority + " is outside " + range
                        + ", the range the kernel accepts (sched_get_priority_min/max)");
            }
            checkNice("fallback nice", fallbackNice);
        }

        @Override
        public PriorityResult applyToCurrentThread(Affinity affinity) {
            return ThreadScheduling.of(affinity).applyRealtime(this);
        }

        @Override
        public String toString() {
            return schedClass + " priority " + priority + " (else nice " + fallbackNice + ")";
        }
    }

    /** A nice value in the normal class. */
    record Nice(int nice) implements PriorityPolicy {
        public Nice {
            checkNice("nice", nice);
        }

        @Override
        public PriorityResult applyToCurrentThread(Affinity affinity) {
            return ThreadScheduling.of(affinity).applyNice(this);
        }

        @Override
        public String toString() {
            return "nice " + nice;
        }
    }

    private static void checkNice(String what, int nice) {
        if (nice < NICE_MIN || nice > NICE_MAX) {
            throw new IllegalArgumentException(what + " " + nice + " is outside " + NICE_MIN + ".." + NICE_MAX);
        }
    }
}
