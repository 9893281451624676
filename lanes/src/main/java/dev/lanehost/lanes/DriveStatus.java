package dev.lanehost.lanes;

/** The outcome of {@link ExecutionLane#drive}; the codes are stable, for C callers. */
public enum DriveStatus {
    /** The drive ran (possibly zero turns). */
    OK(0),
    /** The lane is bound to another thread; nothing ran. */
    WRONG_THREAD(1),
    /** A drive of this lane is already running on this thread (a turn called drive); nothing ran. */
    REENTRANT(2),
    /** maxTurns was negative; nothing ran. */
    INVALID_ARGUMENT(3),
    /** The runtime is closed; nothing ran. */
    CLOSED(4);

    private final int code;

    DriveStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
