package dev.lanehost.affinity;

/**
 * A thread's scheduling as the kernel reports it: {@code sched_getscheduler}, {@code sched_getparam} and
 * {@code getpriority(PRIO_PROCESS, tid)} of that thread.
 *
 * @param schedClass its scheduling class
 * @param priority   its real-time priority; 0 outside FIFO and RR
 * @param nice       its nice value (-20..19); it weighs only in the normal classes, but the kernel keeps it
 */
public record ThreadPriority(SchedClass schedClass, int priority, int nice) {

    @Override
    public String toString() {
        return schedClass.isRealtime()
                ? schedClass + " priority " + priority + " (nice " + nice + ")"
                : schedClass + " nice " + nice;
    }
}
