package dev.lanehost.lanes;

/** The outcome of {@link ExecutionLane#drive}; the codes are stable, for C callers. */
public enum DriveStatus {
    /** The drive ran (possibly zero turns); or bind/release did what was asked. */
    OK(0),
    /** The lane is bound to another live thread (or, for release, not to the caller); nothing ran. */
    WRONG_THREAD(1),
    /** A drive of this lane is already running on this thread (a turn called drive); nothing ran. */
    REENTRANT(2),
    /** maxTurns was negative; nothing ran. */
    INVALID_ARGUMENT(3),
    /** The runtime is closed; nothing ran but the lane's pending teardown, on its bound thread. */
    CLOSED(4);

    private static final DriveStatus[] BY_CODE = values(); // codes are the ordinals, 0..4

    private final int code;

    DriveStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The status with this {@link #code()}, as {@link ExecutionLane#drive(int, DriveCounts)} returns it. */
    public static DriveStatus ofCode(int code) {
        return BY_CODE[code];
    }
}
