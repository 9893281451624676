package dev.lanehost.lanes.observe;

/**
 * The runtime's own log lines, written from paths that must not throw (a halt, a teardown, a drive): a
 * failing logger is swallowed, and user objects are described by class name only, never through their
 * {@code toString} or {@code getMessage}.
 */
public final class RuntimeLog {
    private static final System.Logger LOG = System.getLogger("dev.lanehost.lanes");

    private RuntimeLog() {
    }

    /**
     * A turn threw and halted its actor. The line names the actor ({@code ActorCell#describe()}: id, name,
     * placement) and the exception's class; the exception itself goes to the logger, and nothing the logger
     * does may break the halt that follows.
     */
    public static void turnFailed(String actor, String outcome, Throwable failure) {
        logSafely(System.Logger.Level.WARNING, actor + " " + outcome + ": a turn threw " + failure.getClass().getName(), failure);
    }

    /** An actor halted for its turn budget: which one and why, nothing of the user's. */
    public static void budgetHalt(String actor, String outcome, String why) {
        logSafely(System.Logger.Level.WARNING, actor + " " + outcome + " (budget): " + why);
    }

    /** A user hook ({@code stopped}, a release hook, an abandonment) threw; the runtime's path goes on. */
    public static void hookFailed(String actor, String what, Throwable failure) {
        logSafely(System.Logger.Level.WARNING, actor + ": " + what + " threw " + failure.getClass().getName(), failure);
    }

    public static void internalError(String where, Throwable failure) {
        logSafely(System.Logger.Level.ERROR, "lanehost internal error in " + where + ": " + failure.getClass().getName(), failure);
    }

    public static void logSafely(System.Logger.Level level, String message, Throwable failure) {
        try {
            LOG.log(level, message, failure);
        } catch (Throwable ignored) {
            // The logger (or the exception it formats) failed; the runtime's own path goes on.
        }
    }

    public static void logSafely(System.Logger.Level level, String message) {
        try {
            LOG.log(level, message);
        } catch (Throwable ignored) {
            // As above: logging never breaks a runtime path.
        }
    }

    /** A line from a path that may throw (an observer, a close); nothing of the user's is formatted. */
    public static void log(System.Logger.Level level, String message, Throwable failure) {
        LOG.log(level, message, failure);
    }

    public static void log(System.Logger.Level level, String message) {
        LOG.log(level, message);
    }
}
