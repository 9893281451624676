package dev.lanehost.lanes.lane;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * Which thread a lane is bound to, and how the binding moves: a lane binds to the first thread that
 * drives (or binds) it, follows its host to a new thread once the bound one has ended or released it,
 * and never displaces a live bound thread. Steps 1 and 2 of the lane's drive protocol
 * ({@code ExecutionLane}).
 *
 * <p>{@code boundThread} is written by CAS (a new binding) or by the bound thread itself (a release), so
 * binds are serial; the bind count and the facts of the latest bind are written only by the bind winner.
 *
 * <p>A bind runs inside a host's drive, often the first drive of a host's new real-time thread, so it keeps
 * to code the thread warm-up has already run: it records the rebind's facts as plain fields and the observer
 * that logs the rebind formats them ({@link #takeUnloggedRebind()}): no string concatenation (an
 * invokedynamic that spins a class the first time each site runs), no regular expression, no lambda. Every
 * lane, the warm-up's private lane included, takes the same steps, so the warm-up's binds take the branches
 * a registered lane's rebind takes.
 */
public final class LaneBinding {
    private static final VarHandle BOUND;
    /** How the JVM names a foreign thread it attaches ({@code Thread-N}). */
    private static final String ATTACHED_THREAD_PREFIX = "Thread-";

    static {
        try {
            BOUND = MethodHandles.lookup().findVarHandle(LaneBinding.class, "boundThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String laneName;
    /**
     * What an attached foreign thread that binds the lane is renamed to. The warm-up's private lane "renames" it to
     * the name it has (the creating thread's: its only driver), so the warm-up takes the renaming step a real
     * lane's first drive on a new foreign thread takes, without changing any name.
     */
    private final String threadName;
    /** The lane's letter backlog, for the rebind log line. */
    private final LongSupplier queuedLetters;
    private volatile Thread boundThread;
    /** Binds so far, the first one included: a count rather than a first-bind branch the warm-up would rarely take. */
    private volatile long binds;
    /** Binds an observer has logged (or the first bind: it is no rebind); fewer than {@link #binds} means a rebind waits. */
    private volatile long loggedBinds = 1;
    /** The first bind's thread: the thread an observer compares a rebind with before it has logged one. */
    private volatile long firstBoundId;
    /** Observers only: the thread the last logged line bound the lane to (0: none logged yet). */
    private long loggedToId;
    /** Name and id of the thread that last released the lane, for the rebind log line. */
    private String releasedBy;
    private long releasedById;
    /**
     * Odd while a bind winner writes the facts below, even otherwise (a sequence lock): an observer that sees the
     * same even value before and after reading them read one bind's facts, not a mix of two.
     */
    private volatile long factsVersion;
    // The latest bind's facts, written by its bind winner inside factsVersion's odd spell. Thread ids beside the
    // names: a foreign thread the lane renamed has its lane's name, the same before and after a rebind.
    private String rebindFrom;
    private long rebindFromId;
    private boolean rebindFromEnded;
    private Thread rebindTo;
    private long rebindQueued;

    /**
     * @param registered false for the warm-up's private lane, made on the thread that alone drives it: it leaves
     *                   that thread's name as it is (and the bind facts it records are never read: nobody observes
     *                   that lane)
     */
    public LaneBinding(String laneName, boolean registered, LongSupplier queuedLetters) {
        this.laneName = laneName;
        this.threadName = registered ? "lanehost-lane-" + laneName : Thread.currentThread().getName();
        this.queuedLetters = queuedLetters;
    }

    /** The bound thread, or null before the first bind and after a release. */
    public Thread boundThread() {
        return boundThread;
    }

    public boolean everBound() {
        return binds > 0;
    }

    /** Binds after the first. */
    public long rebinds() {
        return Math.max(0, binds - 1);
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

    /**
     * The warm-up's private lane only: leaves it bound to {@code ended}, a thread that is not alive, as a host
     * thread that has ended leaves its lane, so the warm-up's next drive rebinds it the way a host's restarted
     * thread does.
     *
     * @throws IllegalStateException if the lane is bound or {@code ended} is alive
     */
    public void leaveBoundTo(Thread ended) {
        if (ended.isAlive() || !BOUND.compareAndSet(this, null, ended)) {
            throw new IllegalStateException("only an unbound lane can be left bound to a thread that is not alive");
        }
    }

    /** The bound thread, between drives: unbind, so the next thread to drive binds the lane. */
    public void release(Thread current) {
        releasedBy = current.getName(); // published by the volatile store below
        releasedById = current.threadId();
        // Only the bound thread stores here; others only CAS away a holder that has ended, and we are alive.
        boundThread = null;
    }

    /**
     * The latest rebind's log line, once; null if there is none to log now. Observers only. If rebinds follow each
     * other faster than observers look, the line describes the latest (two observers racing may both log it). The
     * facts come from one bind: read while a bind writes them, they are dropped and the next look logs that bind.
     * A rebind that leaves the lane on the thread it was on when last logged (or first bound) is counted in
     * {@link #rebinds()} and not logged: a host that releases its lane after every buffer so that whichever thread its
     * framework streams on next can bind it (GStreamer's task pool) would otherwise log a line a frame.
     */
    public String takeUnloggedRebind() {
        long version = factsVersion;
        long count = binds;
        if (count <= loggedBinds || (version & 1) != 0) {
            return null;
        }
        String from = rebindFrom;
        long fromId = rebindFromId;
        boolean fromEnded = rebindFromEnded;
        Thread to = rebindTo;
        long queued = rebindQueued;
        VarHandle.acquireFence(); // the reads above happen before the version's second read
        if (factsVersion != version) {
            return null; // a bind wrote them meanwhile
        }
        loggedBinds = count;
        long last = loggedToId != 0 ? loggedToId : firstBoundId;
        loggedToId = to.threadId();
        if (to.threadId() == last) {
            return null; // the thread it had: nothing a reader of the log needs to know
        }
        if (!fromEnded && fromId == to.threadId()) { // it moved and came back between two looks
            return "lane '" + laneName + "' rebound to thread " + to.getName() + " #" + fromId + " (from #" + last
                    + ", bound last when logged); " + queued + " letter(s) queued carried over";
        }
        return "lane '" + laneName + "' rebound from thread " + from + " #" + fromId + (fromEnded ? " (ended)" : " (released)")
                + " to " + to.getName() + " #" + to.threadId() + "; " + queued + " letter(s) queued carried over";
    }

    /**
     * The bind CAS winner: count the bind and record its facts (a first bind's are never logged), name an
     * attached foreign thread. The same steps for every bind, so none is a branch only a host's rebind takes.
     */
    private void bound(Thread previous, Thread current) {
        boolean ended = previous != null; // else unbound: released, or never bound
        if (binds == 0) {
            firstBoundId = current.threadId(); // published by the volatile store of binds below
        }
        long version = factsVersion; // only bind winners write it, one at a time
        factsVersion = version + 1; // odd: the facts are being written
        VarHandle.releaseFence(); // the odd version is stored before any of the facts
        rebindFromEnded = ended;
        rebindFrom = ended ? previous.getName() : releasedBy;
        rebindFromId = ended ? previous.threadId() : releasedById;
        rebindTo = current;
        rebindQueued = queuedLetters.getAsLong();
        binds = binds + 1; // only bind winners write it, one at a time
        factsVersion = version + 2; // even again: publishes the facts above
        if (isAttachedThreadName(current.getName())) {
            current.setName(threadName); // the warm-up's lane: the name it has, so no lane-dependent branch here
        }
    }

    /** {@code Thread-<digits>}: a foreign thread as the JVM names it when it attaches it. */
    private static boolean isAttachedThreadName(String name) {
        int length = name.length();
        if (length <= ATTACHED_THREAD_PREFIX.length() || !name.startsWith(ATTACHED_THREAD_PREFIX)) {
            return false;
        }
        for (int i = ATTACHED_THREAD_PREFIX.length(); i < length; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
