package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;

/**
 * Where runtime close tore down the actors of one lane, and why there. A lane actor's code (its
 * {@code stopped}, its release hooks, its arena's close) belongs on the lane's thread; the outcomes that
 * {@link #onClosingThread() ran on the closing thread} are the exceptions, each logged.
 */
public enum LaneTeardown {
    /** No actor of the lane was left to tear down. */
    NO_ACTORS(false, "no actors were left"),
    /** The host drove the lane (or called bind/release on its thread) within the grace, and that call tore it down. */
    TORN_DOWN_ON_LANE_THREAD(false, "torn down by the host's next drive"),
    /** close() was called on the lane's bound thread, which tore the lane down itself. */
    CLOSED_ON_LANE_THREAD(false, "close() ran on the lane's thread"),
    /** The lane thread began the teardown but had not finished it when close() stopped waiting. */
    UNFINISHED_ON_LANE_THREAD(false, "the lane thread's teardown outlasted the grace"),
    /** No thread ever drove the lane, so none of its actors' code has run anywhere. */
    NEVER_BOUND(true, "the lane was never bound to a thread"),
    /** Its bound thread released it and no thread bound it since. */
    RELEASED(true, "the lane was released by its thread and not bound again"),
    /** Its bound thread had ended (a foreign pthread exits: the JVM detaches its Thread). */
    THREAD_ENDED(true, "the lane's bound thread has ended"),
    /** Its bound thread is alive but did not drive the lane within the close grace. */
    GRACE_EXPIRED(true, "the lane's bound thread did not drive it within the close grace");

    static {
        Access.setTeardowns((LaneTeardown teardown) -> teardown.reason());
    }

    private final boolean onClosingThread;
    private final String reason;

    LaneTeardown(boolean onClosingThread, String reason) {
        this.onClosingThread = onClosingThread;
        this.reason = reason;
    }

    /** True if the lane's actors were torn down on the thread that closed the runtime, not a lane thread. */
    public boolean onClosingThread() {
        return onClosingThread;
    }

    String reason() {
        return reason;
    }
}
