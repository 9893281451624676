package dev.lanehost.lanes;

/**
 * What a drive did.
 *
 * @param status    whether it ran
 * @param turns     turns run by this drive
 * @param remaining letters still queued on the lane when it returned, in the mailboxes of all its actors
 *                  (work left for the next drive; {@link ExecutionLane#queuedLetters()})
 */
public record DriveResult(DriveStatus status, int turns, long remaining) {
    static final DriveResult WRONG_THREAD = new DriveResult(DriveStatus.WRONG_THREAD, 0, 0);
    static final DriveResult REENTRANT = new DriveResult(DriveStatus.REENTRANT, 0, 0);
    static final DriveResult INVALID_ARGUMENT = new DriveResult(DriveStatus.INVALID_ARGUMENT, 0, 0);
    static final DriveResult CLOSED = new DriveResult(DriveStatus.CLOSED, 0, 0);
    /** The common case of a host callback finding nothing to do, without allocating. */
    static final DriveResult NOTHING = new DriveResult(DriveStatus.OK, 0, 0);

    /** The shared constant when nothing ran and nothing is left; a new result otherwise. */
    static DriveResult of(DriveStatus status, int turns, long remaining) {
        if (turns == 0 && remaining == 0) {
            return switch (status) {
                case OK -> NOTHING;
                case WRONG_THREAD -> WRONG_THREAD;
                case REENTRANT -> REENTRANT;
                case INVALID_ARGUMENT -> INVALID_ARGUMENT;
                case CLOSED -> CLOSED;
            };
        }
        return new DriveResult(status, turns, remaining);
    }
}
