package dev.lanehost.lanes.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Which thread a lane is bound to, and how the binding moves: a lane binds to the first thread that
 * drives (or binds) it, follows its host to a new thread once the bound one has ended or released it,
 * and never displaces a live bound thread. Steps 1 and 2 of the lane's drive protocol
 * ({@code ExecutionLane}).
 *
 * <p>{@code boundThread} is written by CAS (a new binding) or by the bound thread itself (a release), so
 * binds are serial; the rebind count and the pending log line are written only by the bind winner.
 */
public final class LaneBinding {
    private static final VarHandle BOUND;
    private static final Pattern ATTACHED_THREAD_NAME = Pattern.compile("Thread-\\d+");

    static {
        try {
            BOUND = MethodHandles.lookup().findVarHandle(LaneBinding.class, "boundThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String laneName;
    /** False for the warm-up's private lane: it renames no thread and counts and logs nothing. */
    private final boolean registered;
    /** The lane's letter backlog, for the rebind log line. */
    private final LongSupplier queuedLetters;
    private volatile Thread boundThread;
    /** True once any thread has bound the lane: with no bound thread, the lane was released. */
    private volatile boolean everBound;
    private volatile long rebinds;
    /** The latest rebind, until an observer logs it (a drive never writes the log itself). */
    private volatile String unloggedRebind;
    /** Name of the thread that last released the lane, for the rebind log line. */
    private String releasedBy;

    public LaneBinding(String laneName, boolean registered, LongSupplier queuedLetters) {
        this.laneName = laneName;
        this.registered = registered;
        this.queuedLetters = queuedLetters;
    }

    /** The bound thread, or null before the first bind and after a release. */
    public Thread boundThread() {
        return boundThread;
    }

    public boolean everBound() {
        return everBound;
    }

    public long rebinds() {
        return rebinds;
    }

    /**
     * Binds the lane to {@code current} if it is unbound or its bound thread has ended. A live bound
     * thread is never displaced.
     *
     * @return true if the lane is now bound to {@code current}; false if a live other thread holds it
     */
    public boolean acquire(Thread current) {
        while (true) {
            Thread holder = boundThread;
            if (holder == current) {
                return true;
            }
            // A thread that has ended cannot be inside a drive, and its end happens-before isAlive() is false.
            if (holder != null && holder.isAlive()) {
                return false;
            }
            if (BOUND.compareAndSet(this, holder, current)) {
                bound(holder, current);
                return true;
            }
            // Another thread bound or released it meanwhile: look again.
        }
    }

    /** The bound thread, between drives: unbind, so the next thread to drive binds the lane. */
    public void release(Thread current) {
        if (registered) {
            releasedBy = current.getName(); // published by the volatile store below
        }
        // Only the bound thread stores here; others only CAS away a holder that has ended, and we are alive.
        boundThread = null;
    }

    /** The latest rebind's log line, once; null if there is none to log. Observers only. */
    public String takeUnloggedRebind() {
        String rebind = unloggedRebind;
        if (rebind != null) {
            unloggedRebind = null;
        }
        return rebind;
    }

    /** The bind CAS winner: count and describe a rebind, name an attached foreign thread. */
    private void bound(Thread previous, Thread current) {
        if (!registered) {
            return;
        }
        if (everBound) {
            rebinds = rebinds + 1; // only bind winners write it, one at a time
            String from = previous != null ? previous.getName() + " (ended)" : releasedBy + " (released)";
            unloggedRebind = "lane '" + laneName + "' rebound from thread " + from + " to " + current.getName() + "; "
                    + queuedLetters.getAsLong() + " letter(s) queued carried over";
        }
        everBound = true;
        if (ATTACHED_THREAD_NAME.matcher(current.getName()).matches()) {
            current.setName("lanehost-lane-" + laneName);
        }
    }
}
