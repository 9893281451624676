package dev.lanehost.lanes;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which clauses of the scheduler contract a runtime discharges itself and which it assumes of what it runs on
 * (its substrate), for one profile: {@link ActorRuntime#assumptionManifest()}. Every claim of fairness, bounded
 * turns, a working control plane or admission rests on a clause named here, and each clause lanehost discharges
 * has a conformance test.
 *
 * @param profile   the profile the manifest describes
 * @param authority whose scheduling decisions these are
 * @param clauses   every clause, with how it is discharged or what it assumes
 */
public record AssumptionManifest(Profile profile, Authority authority, Map<Clause, Discharge> clauses) {

    /** The four dispatch clauses of the contract. */
    public enum Clause {
        /** A ready actor is dispatched within a bounded number of scheduling events. */
        FAIRNESS,
        /** Turns of one actor never interleave and run to completion; running out of budget is a fault, not a scheduling event. */
        TURN_DISCIPLINE,
        /** Halts, timers and budget enforcement keep working while every runner and queue is saturated. */
        CONTROL_PLANE_IMMUNITY,
        /**
         * Work is accepted or refused, and a refusal is observable; nothing accepted is lost while its actor lives (a
         * halt drops what is still queued: messages are counted, tasks are told).
         */
        ADMISSION
    }

    /** Whose dispatch decisions these are: lanehost in one process decides for itself. */
    public enum Authority {
        /** Decides every dispatch of its own actors; answers to no other scheduler. */
        SOVEREIGN
    }

    /** How a clause is met. */
    public sealed interface Discharge {
        /** lanehost meets the clause itself, by {@code how}. */
        record Discharged(String how) implements Discharge {
            public Discharged {
                Objects.requireNonNull(how, "how");
            }
        }

        /** The clause rests on {@code substrate} (the OS scheduler, the host that drives lanes). */
        record Assumed(String substrate) implements Discharge {
            public Assumed {
                Objects.requireNonNull(substrate, "substrate");
            }
        }
    }

    public AssumptionManifest {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(authority, "authority");
        EnumMap<Clause, Discharge> copy = new EnumMap<>(Clause.class);
        copy.putAll(clauses);
        if (copy.size() != Clause.values().length) {
            throw new IllegalArgumentException("a manifest names every clause; missing " + missing(copy));
        }
        clauses = Collections.unmodifiableMap(copy);
    }

    /** lanehost's manifest for a profile. */
    public static AssumptionManifest of(Profile profile) {
        Map<Clause, Discharge> clauses = new EnumMap<>(Clause.class);
        switch (profile) {
            case HOSTED -> {
                clauses.put(Clause.FAIRNESS, new Discharge.Assumed("the OS scheduler gives the workers and each lane's host "
                        + "thread CPU time, and each host drives its lanes; on a run queue a ready actor then runs within N "
                        + "runs of the N other ready actors, each run at most turnsPerRun turns (first in, first out, one letter per "
                        + "turn; a worker alternates its shared and pinned queues, so within 2N of its runs, and between two polls "
                        + "of them runs at most 16 actors in a row that its own turns woke and its kept actor (alone, or taking "
                        + "turns with the actor it swaps with in one run) at most 32 times)"));
                clauses.put(Clause.TURN_DISCIPLINE, new Discharge.Discharged("a turn lock per actor; the timer thread's "
                        + "budget watch asks a long turn to yield, strikes it and disrupts it at its next poll site, and the "
                        + "actor halts with BUDGET (a loop with no poll site cannot be stopped in Java)"));
                clauses.put(Clause.CONTROL_PLANE_IMMUNITY, new Discharge.Discharged("halts are claimed by CAS from any thread "
                        + "and take the actor out of the registry at once; timers and budgets run on the timer thread, not "
                        + "behind turns, and their letters bypass admission"));
                clauses.put(Clause.ADMISSION, admission());
            }
            case SINGLE_THREAD -> {
                clauses.put(Clause.FAIRNESS, new Discharge.Assumed("the host calls drain() or runUntilIdle(); within them a "
                        + "ready actor runs within N turns of the N other ready actors (first in, first out)"));
                clauses.put(Clause.TURN_DISCIPLINE, new Discharge.Discharged("a turn lock per actor; budgets are settled when a "
                        + "turn returns (one thread: nothing can ask it to yield or disrupt it meanwhile)"));
                clauses.put(Clause.CONTROL_PLANE_IMMUNITY, new Discharge.Assumed("the host's thread: timers fire and budgets "
                        + "settle only inside drain() and runUntilIdle()"));
                clauses.put(Clause.ADMISSION, admission());
            }
            case SIMULATED -> {
                clauses.put(Clause.FAIRNESS, new Discharge.Discharged("queues and the actors in each are served in seeded "
                        + "rounds, each ready one once a round: a ready actor runs within 2N turns of the N other ready actors"));
                clauses.put(Clause.TURN_DISCIPLINE, new Discharge.Discharged("a turn lock per actor; the virtual clock, moved "
                        + "by each explicit poll site, raises budget flags at exact polls"));
                clauses.put(Clause.CONTROL_PLANE_IMMUNITY, new Discharge.Discharged("the simulation fires due timers before "
                        + "every pass, and halts are claimed by CAS whatever the queues hold"));
                clauses.put(Clause.ADMISSION, admission());
            }
        }
        return new AssumptionManifest(profile, Authority.SOVEREIGN, clauses);
    }

    private static Discharge admission() {
        return new Discharge.Discharged("bounded mailboxes and lanes; a message, task or gate call that does not fit is "
                + "refused (Delivery.FULL, false, REFUSED) and counted; the runtime's own letters are never refused");
    }

    /** A table for humans: one line per clause. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("scheduler contract, profile ").append(profile).append(", authority ").append(authority).append('\n');
        for (Map.Entry<Clause, Discharge> entry : clauses.entrySet()) {
            out.append(String.format("  %-22s ", entry.getKey()));
            switch (entry.getValue()) {
                case Discharge.Discharged discharged -> out.append("discharged: ").append(discharged.how());
                case Discharge.Assumed assumed -> out.append("assumed: ").append(assumed.substrate());
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String missing(Map<Clause, Discharge> clauses) {
        StringBuilder names = new StringBuilder();
        for (Clause clause : Clause.values()) {
            if (!clauses.containsKey(clause)) {
                names.append(names.isEmpty() ? "" : ", ").append(clause);
            }
        }
        return names.toString();
    }
}
