package dev.lanehost.lanes;

import dev.lanehost.affinity.AffinityResult;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The runtime's JDK Flight Recorder events, and the one call each hook site makes.
 *
 * <p>Every call first asks its event's {@link EventType} whether a recording wants it: with no recording (or the
 * event disabled) that is a field read and a return, nothing allocated, so the hooks can sit on turn and steal
 * paths. Only an enabled event builds its strings. Stack traces are off: the hook sites are fixed, and a stack
 * walk per steal would cost more than the steal.
 */
final class RuntimeEvents {
    private static final String CATEGORY = "lanehost";

    /** {@link TurnOverBudget#verdict}: the turn ran past the fast budget only; the actor was asked to yield. */
    static final String FAST = "fast";
    /** The turn ran past the slow budget: a strike, below the ceiling. */
    static final String SLOW = "slow";
    /** The strike that reached the ceiling: the actor halts. */
    static final String STRIKE = "strike";
    /** The turn was disrupted (it ran on a slow budget after it was asked to yield, or its start ran too long). */
    static final String DISRUPTED = "disrupted";

    private static final EventType TURN_OVER_BUDGET = EventType.getEventType(TurnOverBudget.class);
    private static final EventType ACTOR_HALTED = EventType.getEventType(ActorHalted.class);
    private static final EventType STEAL = EventType.getEventType(Steal.class);
    private static final EventType LANE_DRIVE_STALL = EventType.getEventType(LaneDriveStall.class);
    private static final EventType AFFINITY_RESULT = EventType.getEventType(AffinityResultEvent.class);

    private RuntimeEvents() {
    }

    /** A settled turn that earned budget flags; {@code started} is its start on the runtime clock. */
    static void turnOverBudget(ActorCell cell, String verdict, long started, int strikes) {
        if (!TURN_OVER_BUDGET.isEnabled()) {
            return;
        }
        TurnOverBudget event = new TurnOverBudget();
        event.actorId = cell.id;
        event.actorName = cell.name;
        event.placement = cell.placement.toString();
        event.verdict = verdict;
        event.turnDuration = Math.max(0, cell.runtime.nanoTime() - started);
        event.strikes = strikes;
        event.commit();
    }

    /** An actor's teardown ran: it is gone. */
    static void actorHalted(ActorCell cell, ExitReason reason) {
        if (!ACTOR_HALTED.isEnabled()) {
            return;
        }
        ActorHalted event = new ActorHalted();
        event.actorId = cell.id;
        event.actorName = cell.name;
        event.placement = cell.placement.toString();
        event.reason = HaltCounts.kind(reason);
        event.detail = detail(reason);
        event.commit();
    }

    /** {@code thief} took {@code cell} from {@code victim}'s shared queue. */
    static void steal(Worker thief, Worker victim, ActorCell cell) {
        if (!STEAL.isEnabled()) {
            return;
        }
        Steal event = new Steal();
        event.thief = thief;
        event.victim = victim;
        event.actorId = cell.id;
        event.actorName = cell.name;
        event.commit();
    }

    /** A lane's stall watch saw a new stall episode. */
    static void laneDriveStall(ExecutionLane lane, long queuedActors, long queuedLetters, long undrivenNanos) {
        if (!LANE_DRIVE_STALL.isEnabled()) {
            return;
        }
        LaneDriveStall event = new LaneDriveStall();
        event.lane = lane.name();
        event.queuedActors = queuedActors;
        event.queuedLetters = queuedLetters;
        event.undrivenFor = undrivenNanos;
        event.commit();
    }

    /** What applying the affinity policy did to a runtime thread, on that thread at its start. */
    static void affinityResult(Thread thread, AffinityResult result) {
        if (!AFFINITY_RESULT.isEnabled()) {
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

    /** What a log reader may see of a reason: kinds and class names, never a user object's text. */
    private static String detail(ExitReason reason) {
        return switch (reason) {
            case ExitReason.Failed failed -> failed.cause() == null ? "" : failed.cause().getClass().getName();
            case ExitReason.Linked linked -> "actor " + linked.peer().id() + " '" + linked.peer().name() + "': "
                    + HaltCounts.kind(linked.reason());
            default -> "";
        };
    }

    // ---------------------------------------------------------------- the events

    @Name("dev.lanehost.TurnOverBudget")
    @Label("Turn Over Budget")
    @Description("An actor's turn ran past its turn budget: asked to yield (fast), a strike (slow), the strike that"
            + " reached the ceiling (strike), or disrupted")
    @Category(CATEGORY)
    @StackTrace(false)
    static final class TurnOverBudget extends Event {
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
    static final class ActorHalted extends Event {
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
    static final class Steal extends Event {
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
    static final class LaneDriveStall extends Event {
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
    static final class AffinityResultEvent extends Event {
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
