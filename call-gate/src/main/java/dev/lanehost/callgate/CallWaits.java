package dev.lanehost.callgate;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.DriveCounts;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Placement;

/**
 * The two ways a caller waits for its call, past the gate's one call path: blocking (the call's own
 * {@link CallRendezvous#await}, refused on a thread that runs the actor's turns) or, on the actor's lane thread,
 * driving the lane until the call is answered. Each way's refusal comes before the call is admitted.
 */
final class CallWaits {
    /** Drives that run nothing while our call is queued can only be a sender caught mid-offer; this many is plenty. */
    private static final int MAX_IDLE_DRIVES = 10_000;
    /** Each lane thread's counts for the drives of its calls: {@code drive(int)} would allocate a result per drive. */
    private static final ThreadLocal<DriveCounts> DRIVE_COUNTS = ThreadLocal.withInitial(DriveCounts::new);

    private CallWaits() {
    }

    /** A blocking caller's timeout in nanoseconds, saturated: one too long for a long waits "for ever" (292 years). */
    static long saturatedNanos(java.time.Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Why a blocking call cannot be made on this thread, or null. */
    static CallOutcome blockingRefusal(ActorRef actor) {
        if (actor.isPlacementThread() && actor.exitReason().isEmpty()) { // a halted actor's call answers that instead
            return new CallOutcome(CallStatus.WRONG_THREAD, "the blocking call entry was used on " + runnerOf(actor)
                    + ": it could wait on itself (a host callback on a lane thread uses callOnLane; a turn sends a message"
                    + " naming whom to answer)");
        }
        return null;
    }

    /** Which thread of {@code actor}'s runners the caller is, for a WRONG_THREAD sentence. */
    private static String runnerOf(ActorRef actor) {
        String named = "actor " + actor.name() + "'s";
        return switch (actor.placement()) {
            case Placement.Lane lane -> "lane '" + lane.name() + "''s bound thread, which runs " + named + " turns";
            case Placement.Pinned pinned -> "worker " + pinned.worker() + ", which runs " + named + " turns (it is pinned there)";
            case Placement.Placed placed -> "the thread of placement entry '" + placed.entry() + "', which runs " + named + " turns";
            case Placement.Blocking blocking -> "a blocking thread, and " + named + " turns need a free one (with every blocking"
                    + " thread waiting on calls, none would be left to run them)";
            default -> "a thread that may run " + named + " turns (any HOSTED worker may run a normal actor; in SINGLE_THREAD and"
                    + " SIMULATED, the thread inside drain() or runUntilIdle())";
        };
    }

    /** Why a call cannot drive {@code lane} from this thread, or null: the lane bound to the caller first. */
    static CallOutcome laneRefusal(ActorRef actor, ExecutionLane lane) {
        if (!(actor.placement() instanceof Placement.Lane onLane) || !onLane.name().equals(lane.name())) {
            return new CallOutcome(CallStatus.INVALID_ARGUMENT, "actor " + actor.name() + " is placed "
                    + actor.placement() + ", not on lane " + lane.name());
        }
        // Binding first: a lane whose host restarted its callback thread follows it here, as a drive would.
        switch (lane.bind()) {
            case OK -> { }
            case CLOSED -> {
                return new CallOutcome(CallStatus.CLOSED, "the runtime is closed");
            }
            case REENTRANT -> {
                return new CallOutcome(CallStatus.WRONG_THREAD, "callOnLane was used inside a turn of lane "
                        + lane.name() + "; it is for host callbacks outside turns");
            }
            default -> {
                Thread bound = lane.boundThread();
                return new CallOutcome(CallStatus.WRONG_THREAD, "callOnLane must run on lane " + lane.name()
                        + "'s thread (" + (bound == null ? "none" : bound.getName()) + ")");
            }
        }
        return null;
    }

    /** Drives {@code lane} until the admitted {@code call} is answered, or withdraws it (turns used up, closed, refused). */
    static CallAnswer driveLane(CallGate gate, ExecutionLane lane, GateCall call, int maxTurns) {
        DriveCounts counts = DRIVE_COUNTS.get();
        int turns = 0;
        int idleDrives = 0;
        while (!call.lvAnswered()) {
            if (gate.isClosed()) {
                call.withdrawClosed();
                break;
            }
            if (maxTurns > 0 && turns >= maxTurns) {
                call.withdraw(CallStatus.TIMED_OUT, "older work on lane " + lane.name() + " used up the " + maxTurns + "-turn bound");
                break;
            }
            int code = lane.drive(1, counts);
            DriveStatus driven = DriveStatus.ofCode(code);
            switch (driven) {
                case OK -> { }
                case REENTRANT -> call.withdraw(CallStatus.WRONG_THREAD, "callOnLane was used inside a turn of lane "
                        + lane.name() + "; it is for host callbacks outside turns");
                case CLOSED -> call.withdraw(CallStatus.CLOSED, "the runtime is closed");
                default -> call.withdraw(CallStatus.WRONG_THREAD, "lane " + lane.name() + " refused the drive: " + driven);
            }
            int ran = counts.turns();
            turns += ran;
            if (ran == 0 && ++idleDrives > MAX_IDLE_DRIVES) {
                // Nothing ran and our call did not finish: a sender was mid-queue, or the lane lost the actor.
                call.withdraw(CallStatus.TIMED_OUT, "lane " + lane.name()
                        + " had nothing runnable while the call was pending");
            } else if (ran > 0) {
                idleDrives = 0;
            }
        }
        return call.lvOutcome();
    }

}
