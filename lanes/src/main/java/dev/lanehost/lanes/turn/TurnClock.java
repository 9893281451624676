package dev.lanehost.lanes.turn;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.TurnDisrupted;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.DisruptionAccess;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.budget.ThreadCpu;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.observe.RuntimeEvents;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One actor's turns against its {@link dev.lanehost.lanes.TurnBudget}: when the running turn began, the flags it has earned, and
 * the strikes of the turns before it. The runner (the thread holding the actor's turn lock) begins and settles
 * turns; the budget clock (the HOSTED {@code BudgetWatch}'s thread, or the SIMULATED drainer at a poll site — one
 * thread per runtime) raises flags; observers read the start.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>At a turn's start the runner writes the pause word, a new generation with no flags ({@link BudgetLimits}),
 *       then the turn's start; both release stores, so the turn path has no fence. The start is the clock's time,
 *       except under the HOSTED watch, where the runner writes {@link #UNSEEN} and reads no clock: reading it
 *       (a {@code clock_gettime}) was a fifth of a short turn's cost. The watch, the first time it sees the turn,
 *       replaces {@code UNSEEN} by its own clock's time (CAS, so a turn that has already ended is left alone) and
 *       judges the turn from there, as Go's sysmon judges a goroutine from the tick that first saw it: a turn is
 *       never charged for time it did not run, and is charged at most one look of the watch late (the watch
 *       looks every half fast budget while turns run, so a yield request comes between 1 and 1.5 fast budgets
 *       into the turn).</li>
 *   <li>The budget clock reads the word, then the start (acquire: a start older than the word's turn is never
 *       read), and raises the flags the turn has earned by CAS on the word it read, so a flag never lands on a
 *       later turn, whose generation differs: {@code YIELD} at the fast budget, {@code STRIKE} at the slow
 *       budget, {@code DISRUPT} a slow budget after it raised {@code YIELD} if the runner thread spent half of it on
 *       the CPU, else at the latest slow × strike ceiling after it ({@link #raise}; a start: only {@code DISRUPT},
 *       at slow × strike ceiling).</li>
 *   <li>Every context call polls the word: a raised {@code DISRUPT} throws {@link TurnDisrupted}, as often as
 *       the turn polls.</li>
 *   <li>When the turn returns the runner settles: a strike for {@code STRIKE} (the ceiling halts the actor),
 *       a halt for {@code DISRUPT} once a poll site has thrown it (a start's: whether or not), the slow band for
 *       {@code YIELD}. SINGLE_THREAD has no budget clock: the runner
 *       computes the flags from the turn's length when it returns, and its disruption from the CPU time as well
 *       ({@link #ranOnTheCpu}).</li>
 * </ol>
 */
public final class TurnClock {
    private static final DisruptionAccess<TurnDisrupted> DISRUPTIONS = Access.disruptions();

    /** The start of a running turn the HOSTED budget watch has not looked at yet: nothing measured it. */
    public static final long UNSEEN = Long.MIN_VALUE;
    private static final VarHandle STARTED;
    private static final VarHandle PAUSE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STARTED = lookup.findVarHandle(TurnClock.class, "startedNanos", long.class);
            PAUSE = lookup.findVarHandle(TurnClock.class, "pause", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ActorCell cell;
    private final BudgetLimits limits;
    /** SINGLE_THREAD: nothing raises flags mid-turn; the runner computes them when the turn returns. */
    private final boolean afterTurn;
    /** HOSTED: the watch stamps a turn's start when it first sees it; the runner reads no clock. */
    private final boolean watched;
    /** SINGLE_THREAD: the running turn is the actor's start. Runner only. */
    private boolean startTurn;
    /**
     * SINGLE_THREAD: when the running turn threw, or 0. Its budget ends there: the supervisor's remedy and the fault's
     * log line that follow on the turn's thread (a first log line can take 100 ms) are the runtime's work, not the turn's.
     */
    private long threwNanos;
    /**
     * SINGLE_THREAD: the runner thread's CPU time when the running turn began, read only if its actor had a strike then
     * (only the settling of a turn changes the strikes, after this turn's CPU time is judged). Runner only.
     */
    private long cpuAtStart;
    /** Runtime clock at the start of the running turn ({@link #UNSEEN} until the watch stamps it), 0 between turns. */
    @SuppressWarnings("unused")
    private long startedNanos;
    /** The running turn's flags (low bits) under its generation (high bits). */
    @SuppressWarnings("unused")
    private volatile long pause;
    /** Turns in a row that ran past the slow budget. Runner only. */
    private int strikes;
    /** When the budget clock raised the running turn's yield request. Budget clock only. */
    private long yieldRaisedNanos;
    /** The runner's CPU time when the yield request was raised, or {@link ThreadCpu#UNKNOWN}. Budget clock only. */
    private long yieldCpuNanos;
    /** When the budget clock next asks whether the running turn has earned its disruption. Budget clock only. */
    private long disruptLookNanos;
    /**
     * Why the running turn was disrupted, if the CPU time told: written by the budget clock before it raises
     * {@code DISRUPT}, read by the poll site that throws it. Null: a slow budget of wall time passed.
     */
    private String disruptedBecause;
    /**
     * A poll site of the running turn threw {@link TurnDisrupted}. A raised {@code DISRUPT} that no poll site reached
     * disrupted nothing: the turn settles as a strike. Runner only (poll sites run on the turn's thread).
     */
    private boolean disruptionThrown;

    TurnClock(ActorCell cell, BudgetLimits limits) {
        this.cell = cell;
        this.limits = limits;
        this.afterTurn = cell.runtime.budgetClock == RuntimeContext.BudgetClock.AFTER_TURN;
        this.watched = cell.runtime.budgetClock == RuntimeContext.BudgetClock.WATCH;
    }

    // ---------------------------------------------------------------- the runner

    /**
     * A turn begins with the letter's {@code turnFlags} ({@link BudgetLimits#START} for an actor's start, else 0).
     * The flags are or-ed into the word, not chosen by a test: a branch that only starts take would be pruned by
     * the JIT on a lane whose warm-up ran no start, and the first start there would deoptimize the drive.
     */
    public void begin(int turnFlags) {
        if (afterTurn) {
            startTurn = turnFlags != 0; // nothing raises flags mid-turn here: the pause word stays as it is
            long now = cell.home.takeTurnEndClock(); // inside a drive: the last turn's end
            STARTED.setRelease(this, now != 0 ? now : cell.runtime.nanoTime());
            if (strikes != 0) { // rare: the last turn was struck (a syscall here, never on a turn within budget)
                cpuAtStart = cell.runtime.threadCpu.nanos(Thread.currentThread());
            }
            return;
        }
        PAUSE.setRelease(this, nextGeneration() | turnFlags);
        STARTED.setRelease(this, watched ? UNSEEN : cell.runtime.nanoTime());
    }

    /** The teardown's {@code stopped} hook runs as a new generation without flags: the last turn's disruption must not throw in it. */
    void beginTeardown() {
        PAUSE.setRelease(this, nextGeneration());
    }

    /**
     * The turn has returned: strikes, the disruption's halt, and the band the actor waits in next.
     *
     * @return {@link RunQueue#SLOW_BAND} after a turn that was asked to yield, else {@link RunQueue#READY_BAND}
     */
    public int settle() {
        long started = (long) STARTED.get(this); // the runner's own store, or the watch's stamp (only read on the flags' path)
        long flags = afterTurn ? earnedByTheEnd(started) : word() & BudgetLimits.FLAGS;
        STARTED.setRelease(this, 0L);
        if ((flags & BudgetLimits.EARNED) == 0 && strikes == 0) {
            return RunQueue.READY_BAND; // the common turn: this much stays inlined in it
        }
        return settleFlags(flags, started == UNSEEN ? cell.runtime.nanoTime() : started);
    }

    /** SINGLE_THREAD: the clock read once per turn, at its end, which is also where the drive's next turn starts. */
    private long earnedByTheEnd(long started) {
        long end = cell.runtime.nanoTime();
        cell.home.turnEndedAt(end);
        long threw = threwNanos;
        threwNanos = 0;
        long elapsed = (threw != 0 ? threw : end) - started;
        long flags = limits.earnedByTheEnd(elapsed, startTurn);
        if (startTurn) {
            return flags | BudgetLimits.START;
        }
        if ((flags & BudgetLimits.DISRUPT) != 0 && !ranOnTheCpu(elapsed)) {
            flags &= ~BudgetLimits.DISRUPT; // the strike it also earned, not a halt
        }
        return flags;
    }

    /**
     * SINGLE_THREAD, a turn that returned past fast + slow: was it the actor's doing? Only if it was on the CPU for at
     * least half of fast + slow. A turn is measured on the CPU only once its actor has a strike, so the first turn past
     * fast + slow settles as a strike: it cannot be told from a turn whose thread the machine held off the CPU (a
     * loaded host, a process stopped in a debugger, a laptop asleep), and a turn within budget costs no CPU-time read.
     * Where the CPU time cannot be read the rule is wall time. Sets the reason the halt gives.
     */
    private boolean ranOnTheCpu(long elapsed) {
        if (strikes == 0) { // its CPU time was not read at its start
            return false;
        }
        long now = cpuAtStart == ThreadCpu.UNKNOWN ? ThreadCpu.UNKNOWN : cell.runtime.threadCpu.nanos(Thread.currentThread());
        if (now == ThreadCpu.UNKNOWN) {
            disruptedBecause = "its turn ran past fast + slow (" + limits.disruptText + ") after a turn past the slow budget";
            return true;
        }
        long used = now - cpuAtStart;
        if (2 * used < limits.disruptNanos) {
            return false;
        }
        disruptedBecause = "its turn ran " + BudgetLimits.tenths(elapsed) + ", past fast + slow (" + limits.disruptText + "), "
                + BudgetLimits.tenths(used) + " of it on the CPU, after a turn past the slow budget";
        return true;
    }

    private int settleFlags(long flags, long started) {
        boolean thrown = disruptionThrown; // only ever set with DISRUPT in flags, so this path always clears it
        disruptionThrown = false;
        if ((flags & BudgetLimits.EARNED) == 0) {
            strikes = 0; // a turn within budget clears the strikes
            return RunQueue.READY_BAND;
        }
        if (cell.isFrozen()) {
            return RunQueue.READY_BAND;
        }
        // A disruption halts once a poll site threw it; a turn that reached none was not disrupted (README: it cannot
        // be) and settles as the strike it also earned. A start's and SINGLE_THREAD's disruption halt as they are
        // (SINGLE_THREAD's only after the CPU time told: earnedByTheEnd).
        if (halts(flags, thrown)) {
            RuntimeEvents.turnOverBudget(cell.id, cell.name, cell.placement, RuntimeEvents.DISRUPTED, cell.runtime.nanoTime() - started, strikes);
            halt(afterTurn && (flags & BudgetLimits.START) == 0
                    ? disruptedBecause + "; SINGLE_THREAD settles budgets once a turn returns"
                    : disruptedWhy(flags)); // settle read the word with acquire: the budget clock's reason is visible
            return RunQueue.READY_BAND;
        }
        strikes = (flags & BudgetLimits.STRIKE) == 0 ? 0 : strikes + 1;
        boolean struckOut = strikes >= limits.strikeCeiling;
        RuntimeEvents.turnOverBudget(cell.id, cell.name, cell.placement,
                struckOut ? RuntimeEvents.STRIKE : strikes > 0 ? RuntimeEvents.SLOW : RuntimeEvents.FAST, cell.runtime.nanoTime() - started, strikes);
        if (struckOut) {
            halt((strikes == 1 ? "a turn" : strikes + " turns in a row") + " ran past the slow budget (" + limits.slowText + ")");
        }
        return (flags & BudgetLimits.YIELD) != 0 ? RunQueue.SLOW_BAND : RunQueue.READY_BAND;
    }

    /** The running turn threw: in SINGLE_THREAD its budget stops counting here (the supervisor runs next). Runner only. */
    void threw() {
        if (afterTurn && threwNanos == 0) { // an uncharged end already set is earlier: keep it
            threwNanos = cell.runtime.nanoTime();
        }
    }

    /**
     * The rest of the running turn is the runtime's work, not the actor's: earned flags stay, no more are raised.
     * SINGLE_THREAD ends the turn's measured length here, as a throw does; the others CAS {@link BudgetLimits#UNCHARGED}
     * into the word the budget clock CASes its flags into, so a flag it computed before lands first or not at all.
     */
    void stopCharging() {
        threw(); // SINGLE_THREAD: the same end of the measured length; nothing elsewhere
        for (long word = word(); !afterTurn && (word & BudgetLimits.UNCHARGED) == 0; word = word()) {
            if (PAUSE.compareAndSet(this, word, word | BudgetLimits.UNCHARGED)) {
                return;
            }
        }
    }

    /** True if the running turn has been disrupted: a poll site threw, or it is a start past its kill deadline. */
    public boolean disrupted() {
        return halts(word(), disruptionThrown);
    }

    private boolean halts(long flags, boolean thrown) {
        return (flags & BudgetLimits.DISRUPT) != 0 && (thrown || afterTurn || (flags & BudgetLimits.START) != 0);
    }

    /** A poll site: throws {@link TurnDisrupted} if the turn has been disrupted. @return the flags */
    public long poll() {
        long word = (long) PAUSE.getOpaque(this);
        if ((word & BudgetLimits.DISRUPT) != 0) {
            throw disrupted(word); // the message is built out of line: this method stays small enough to inline
        }
        return word;
    }

    private TurnDisrupted disrupted(long word) {
        disruptionThrown = true;
        PAUSE.getAcquire(this); // the budget clock wrote its reason before the CAS that raised DISRUPT
        return DISRUPTIONS.newTurnDisrupted("the turn of " + cell.describe() + " was disrupted: " + disruptedWhy(word));
    }

    /** Why a raised {@code DISRUPT} disrupted the turn: what the CPU time told, if the budget clock read it. */
    private String disruptedWhy(long word) {
        String because = disruptedBecause;
        return because != null && (word & BudgetLimits.START) == 0 ? because : limits.why(word);
    }

    // ---------------------------------------------------------------- the budget clock

    /**
     * Raises the flags the running turn has earned by {@code now}. A turn is disrupted a slow budget after its yield
     * request only if its {@code runner} used at least half a slow budget of CPU since the request: a turn whose
     * thread the machine held off the CPU (a loaded host, a CPU quota) is not the actor's fault, and gets the strike
     * it earned instead, until slow × strike ceiling after the request, when it is disrupted whatever its CPU time.
     * A runner whose CPU time cannot be read (null: SIMULATED's poll sites) is judged by the runtime clock alone.
     *
     * @return the instant of the turn's next budget deadline, or Long.MAX_VALUE if none is left or no turn runs
     */
    public long raise(long now, Thread runner) {
        long word = word();
        long started = (long) STARTED.getAcquire(this);
        // The queue's consumer runs every turn of the queue; checked against the turn's own thread all the same, so
        // that a turn run elsewhere is judged by wall time, as it would be without CPU times, never by another's CPU.
        // Read after the acquires above: the runner writes turnThread before begin()'s release stores.
        Thread measured = runner != null && cell.context.turnThread() == runner ? runner : null;
        if (started == UNSEEN) {
            // First sight of this turn: it began at or before now. A failed CAS means it has ended meanwhile.
            started = STARTED.compareAndSet(this, UNSEEN, now) ? now : (long) STARTED.getAcquire(this);
        }
        if (started == 0 || started == UNSEEN || cell.isFrozen() || (word & BudgetLimits.UNCHARGED) != 0) {
            return Long.MAX_VALUE;
        }
        long elapsed = now - started;
        long earned = 0;
        if ((word & BudgetLimits.START) != 0) {
            if (elapsed >= limits.startKillNanos) {
                earned = BudgetLimits.DISRUPT;
            }
        } else {
            if ((word & BudgetLimits.YIELD) == 0) {
                if (elapsed >= limits.fastNanos) {
                    earned = BudgetLimits.YIELD;
                    // Read only by this clock, and only once the CAS below has set YIELD.
                    yieldRaisedNanos = now;
                    disruptLookNanos = now + limits.slowNanos;
                    yieldCpuNanos = measured == null ? ThreadCpu.UNKNOWN : cell.runtime.threadCpu.nanos(measured);
                }
            } else if ((word & BudgetLimits.DISRUPT) == 0 && now - disruptLookNanos >= 0 && ranOnAfterTheRequest(now, measured)) {
                earned = BudgetLimits.DISRUPT;
            }
            if (elapsed >= limits.slowNanos) {
                earned |= BudgetLimits.STRIKE;
            }
        }
        if ((earned & ~word) != 0 && PAUSE.compareAndSet(this, word, word | earned)) {
            word |= earned;
        }
        return nextDeadline(word, started);
    }

    /**
     * A slow budget of wall time has passed since the yield request: did the turn spend it running? Sets the next
     * look (when the turn could have used the rest of half a slow budget of CPU) if it did not.
     */
    private boolean ranOnAfterTheRequest(long now, Thread runner) {
        long cpuNow = yieldCpuNanos == ThreadCpu.UNKNOWN ? ThreadCpu.UNKNOWN : cell.runtime.threadCpu.nanos(runner);
        if (cpuNow == ThreadCpu.UNKNOWN) {
            disruptedBecause = null;
            return true;
        }
        long used = cpuNow - yieldCpuNanos;
        long sinceRequest = now - yieldRaisedNanos;
        if (used >= limits.slowNanos / 2) {
            disruptedBecause = "it ran on for " + BudgetLimits.tenths(sinceRequest) + " after it was asked to yield, "
                    + BudgetLimits.tenths(used) + " of it on the CPU (the slow budget is " + limits.slowText + ")";
            return true;
        }
        if (sinceRequest >= limits.startKillNanos) {
            disruptedBecause = "it had not returned " + limits.startKillText + " (slow budget × strike ceiling) after it was asked"
                    + " to yield, though only " + BudgetLimits.tenths(used) + " of that on the CPU";
            return true;
        }
        disruptLookNanos = now + Math.min(Math.max(limits.slowNanos / 2 - used, 1), limits.startKillNanos - sinceRequest);
        return false;
    }

    private long nextDeadline(long word, long started) {
        if ((word & BudgetLimits.DISRUPT) != 0) {
            return Long.MAX_VALUE;
        }
        if ((word & BudgetLimits.START) != 0) {
            return started + limits.startKillNanos;
        }
        long strike = (word & BudgetLimits.STRIKE) == 0 ? started + limits.slowNanos : Long.MAX_VALUE;
        long yieldOrDisrupt = (word & BudgetLimits.YIELD) == 0 ? started + limits.fastNanos : disruptLookNanos;
        return Math.min(strike, yieldOrDisrupt);
    }

    // ---------------------------------------------------------------- observers

    /** Turns in a row that ran past the slow budget, as of the last turn. Any thread (a racy read of an int). */
    public int strikes() {
        return strikes;
    }

    /**
     * The runtime clock when the running turn began, or 0 between turns. HOSTED: as the budget watch first saw it,
     * and {@link #UNSEEN} for a turn it has not looked at yet. Any thread.
     */
    long startedNanos() {
        return (long) STARTED.getAcquire(this);
    }

    private long word() {
        return (long) PAUSE.getAcquire(this);
    }

    private long nextGeneration() {
        return (((long) PAUSE.get(this) >>> BudgetLimits.FLAG_BITS) + 1) << BudgetLimits.FLAG_BITS;
    }

    private void halt(String why) {
        cell.faulted(ExitReason.BUDGET, outcome -> RuntimeLog.budgetHalt(cell.describe(), outcome, why));
    }
}
