package dev.lanehost.lanes.observe;

import dev.lanehost.affinity.AffinityResult;
import dev.lanehost.lanes.Placement;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The runtime's JDK Flight Recorder events, and the one call each hook site makes. The hooks take ids, names and
 * plain values, never the runtime's parts: a cell, a lane or a worker is read by its caller.
 *
 * <ol>
 *   <li>Until the JVM's recorder is initialized (a recording started by {@code -XX:StartFlightRecording}, JMC,
 *       {@code jcmd JFR.start} or the API), a hook reads one static flag and returns: the event classes are not
 *       even loaded, since loading the first one costs the recorder's metadata (over 100 ms measured), which must
 *       not land on a lane thread at its first halt, nor on a runtime that is never recorded.</li>
 *   <li>Every runtime, as it is built, calls {@link #listen()}: once per JVM it registers a listener, and the
 *       listener registers the event types on the thread that starts the recorder (at once if it already runs),
 *       so the hooks find them registered.</li>
 *   <li>Then a hook asks its event's {@link EventType} whether a running recording enables it: if not, a field
 *       read and a return, nothing allocated, so the hooks can sit on turn and steal paths. Only an enabled event
 *       builds its strings.</li>
 * </ol>
 * Stack traces are off: the hook sites are fixed, and a stack walk per steal would cost more than the steal.
 */
public final class RuntimeEvents {
    private static final String CATEGORY = "lanehost";

    /** {@link TurnOverBudget#verdict}: the turn ran past the fast budget only; the actor was asked to yield. */
    public static final String FAST = "fast";
    /** The turn ran past the slow budget: a strike, below the ceiling. */
    public static final String SLOW = "slow";
    /** The strike that reached the ceiling: the actor halts. */
    public static final String STRIKE = "strike";
    /** The turn was disrupted (it ran on after it was asked to yield, or its start ran too long). */
    public static final String DISRUPTED = "disrupted";

    private static final AtomicBoolean LISTENING = new AtomicBoolean();

    private RuntimeEvents() {
    }

    /** Step 2: a runtime is being built. Idempotent; never throws. */
    public static void listen() {
        if (!LISTENING.compareAndSet(false, true)) {
            return;
        }
        try {
            FlightRecorder.addListener(new FlightRecorderListener() {
                @Override
                public void recorderInitialized(FlightRecorder recorder) {
                    Types.register();
                }
            });
        } catch (Throwable e) {
            RuntimeLog.internalError("listening for the Flight Recorder", e); // the hooks register lazily instead
        }
    }

    /** The event types, registered when this class initializes: by the listener, or by the first hook that gets past step 1. */
    private static final class Types {
        static final EventType TURN_OVER_BUDGET = EventType.getEventType(TurnOverBudget.class);
        static final EventType ACTOR_HALTED = EventType.getEventType(ActorHalted.class);
        static final EventType STEAL = EventType.getEventType(Steal.class);
        static final EventType LANE_DRIVE_STALL = EventType.getEventType(LaneDriveStall.class);
        static final EventType AFFINITY_RESULT = EventType.getEventType(AffinityResultEvent.class);

        /** Initializes this class, which registers the types. */
        static void register() {
        }
    }

    /** A settled turn that earned budget flags; {@code turnNanos} is its length on the runtime clock. */
    public static void turnOverBudget(long actorId, String actorName, Placement placement, String verdict, long turnNanos,
                                      int strikes) {
        if (!FlightRecorder.isInitialized() || !Types.TURN_OVER_BUDGET.isEnabled()) {
            return;
        }
        TurnOverBudget event = new TurnOverBudget();
        event.actorId = actorId;
        event.actorName = actorName;
        event.placement = placement.toString();
        event.verdict = verdict;
        event.turnDuration = Math.max(0, turnNanos);
        event.strikes = strikes;
        event.commit();
    }

    /** Whether a running recording takes {@link #actorHalted}: its caller builds the reason's text only then. */
    public static boolean recordsHalts() {
        return FlightRecorder.isInitialized() && Types.ACTOR_HALTED.isEnabled();
    }

    /** An actor's teardown ran: it is gone. {@code reason}: its exit reason's kind; {@code detail}: what a log may show of it. */
    public static void actorHalted(long actorId, String actorName, Placement placement, String reason, String detail) {
        if (!recordsHalts()) {
            return;
        }
        ActorHalted event = new ActorHalted();
        event.actorId = actorId;
        event.actorName = actorName;
        event.placement = placement.toString();
        event.reason = reason;
        event.detail = detail;
        event.commit();
    }

    /** Worker {@code thief} took an actor from worker {@code victim}'s shared queue. */
    public static void steal(Thread thief, Thread victim, long actorId, String actorName) {
        if (!FlightRecorder.isInitialized() || !Types.STEAL.isEnabled()) {
            return;
        }
        Steal event = new Steal();
        event.thief = thief;
        event.victim = victim;
        event.actorId = actorId;
        event.actorName = actorName;
        event.commit();
    }

    /** A lane's stall watch saw a new stall episode. */
    public static void laneDriveStall(String lane, long queuedActors, long queuedLetters, long undrivenNanos) {
        if (!FlightRecorder.isInitialized() || !Types.LANE_DRIVE_STALL.isEnabled()) {
            return;
        }
        LaneDriveStall event = new LaneDriveStall();
        event.lane = lane;
        event.queuedActors = queuedActors;
        event.queuedLetters = queuedLetters;
        event.undrivenFor = undrivenNanos;
        event.commit();
    }

    /** What applying the affinity policy did to a runtime thread, on that thread at its start. */
    public static void affinityResult(Thread thread, AffinityResult result) {
        if (!FlightRecorder.isInitialized() || !Types.AFFINITY_RESULT.isEnabled()) {
            return;
        }
        AffinityResultEvent event = new AffinityResultEvent();
        event.thread = thread;
        event.outcome = result.outcome().name();
        event.requestedCpus = result.requested().toString();
        event.appliedCpus = result.applied().toString();
        event.reason = result.reason();
        event.commit();
    }

    // ---------------------------------------------------------------- the events

    @Name("dev.lanehost.TurnOverBudget")
    @Label("Turn Over Budget")
    @Description("An actor's turn ran past its turn budget: asked to yield (fast), a strike (slow), the strike that"
            + " reached the ceiling (strike), or disrupted")
    @Category(CATEGORY)
    @StackTrace(false)
    public static final class TurnOverBudget extends Event {
        @Label("Actor Id")
        long actorId;
        @Label("Actor Name")
        String actorName;
        @Label("Placement")
        @Description("normal, pinned(worker) or lane(name)")
        String placement;
        @Label("Verdict")
        @Description("fast, slow, strike or disrupted")
        String verdict;
        @Label("Turn Duration")
        @Description("From the turn's start to its settling, on the runtime clock (virtual in SIMULATED)")
        @Timespan(Timespan.NANOSECONDS)
        long turnDuration;
        @Label("Strikes")
        @Description("Turns in a row past the slow budget, this one included")
        int strikes;
    }

    @Name("dev.lanehost.ActorHalted")
    @Label("Actor Halted")
    @Description("An actor's teardown ran on its placement: it is gone")
    @Category(CATEGORY)
    @StackTrace(false)
    public static final class ActorHalted extends Event {
        @Label("Actor Id")
        long actorId;
        @Label("Actor Name")
        String actorName;
        @Label("Placement")
        String placement;
        @Label("Reason")
        @Description("Normal, Failed, Killed, Budget, Reaped, Shutdown or Linked")
        String reason;
        @Label("Detail")
        @Description("Failed: the exception's class; Linked: the peer and its reason; else empty")
        String detail;
    }

    @Name("dev.lanehost.Steal")
    @Label("Steal")
    @Description("An idle HOSTED worker took a normal actor from another worker's shared queue")
    @Category(CATEGORY)
    @StackTrace(false)
    public static final class Steal extends Event {
        @Label("Thief")
        Thread thief;
        @Label("Victim")
        Thread victim;
        @Label("Actor Id")
        long actorId;
        @Label("Actor Name")
        String actorName;
    }

    @Name("dev.lanehost.LaneDriveStall")
    @Label("Lane Drive Stall")
    @Description("A lane with queued work has not been driven for the stall threshold: its host stopped calling back?")
    @Category(CATEGORY)
    @StackTrace(false)
    public static final class LaneDriveStall extends Event {
        @Label("Lane")
        String lane;
        @Label("Queued Actors")
        long queuedActors;
        @Label("Queued Letters")
        long queuedLetters;
        @Label("Undriven For")
        @Timespan(Timespan.NANOSECONDS)
        long undrivenFor;
    }

    @Name("dev.lanehost.AffinityResult")
    @Label("Affinity Result")
    @Description("What applying the affinity policy did to a runtime thread at its start")
    @Category(CATEGORY)
    @StackTrace(false)
    public static final class AffinityResultEvent extends Event {
        @Label("Thread")
        Thread thread;
        @Label("Outcome")
        @Description("APPLIED, FELL_BACK or NOT_REQUESTED")
        String outcome;
        @Label("Requested CPUs")
        @Description("In the kernel's list syntax (0-3,8); empty if none were asked for or none could be chosen")
        String requestedCpus;
        @Label("Applied CPUs")
        @Description("The thread's mask read back from the kernel, in its list syntax; empty if unknown")
        String appliedCpus;
        @Label("Reason")
        String reason;
    }
}
