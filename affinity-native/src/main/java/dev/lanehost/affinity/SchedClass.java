package dev.lanehost.affinity;

/**
 * A Linux scheduling class, with the kernel's number ({@code lanehost_affinity_sched_class} in the C
 * header mirrors it and a test compares the two by name). A thread is set to {@link #FIFO} or {@link #RR}
 * by a {@link PriorityPolicy}; the others appear when reading back a thread something else configured.
 */
public enum SchedClass {
    /** The normal time-sharing class; a thread's weight in it is its nice value. */
    OTHER(0),
    /** Real-time: runs until it blocks, yields or a higher priority wakes. */
    FIFO(1),
    /** Real-time, sharing the CPU round-robin with threads of the same priority. */
    RR(2),
    BATCH(3),
    IDLE(5),
    DEADLINE(6),
    /** A class number this enum does not know (a newer kernel): never produced by the library today. */
    UNKNOWN(-1);

    private final int code;

    SchedClass(int code) {
        this.code = code;
    }

    /** The kernel's number ({@code SCHED_FIFO} is 1). */
    public int code() {
        return code;
    }

    /** Whether a {@link PriorityPolicy#realtime} may ask for this class. */
    public boolean isRealtime() {
        return this == FIFO || this == RR;
    }

    /** The class for a kernel number; {@link #UNKNOWN} for one this enum does not name, so a read-back never throws. */
    public static SchedClass fromCode(int code) {
        for (SchedClass schedClass : values()) {
            if (schedClass.code == code) {
                return schedClass;
            }
        }
        return UNKNOWN;
    }

    /** The kernel's name: {@code SCHED_FIFO}. */
    @Override
    public String toString() {
        return "SCHED_" + name();
    }
}
