package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Remedy;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Supervisor;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.OptionsAccess;
import dev.lanehost.lanes.observe.RuntimeLog;
import java.util.function.Consumer;

/**
 * What happens after a turn faults (threw, or ran out of its budget): the actor's {@link Supervisor} chooses a
 * {@link Remedy}, and this carries it out. Runs on the faulted actor's runner, under its turn lock, right after
 * the turn.
 */
public final class Supervision {
    private static final OptionsAccess<SpawnOptions, Supervisor, ?> OPTIONS = Access.options();

    private Supervision() {
    }

    /**
     * @param log writes the fault's log line, given what became of the actor ("halted", or how its supervisor kept
     *            it): with the halt for a retire or a restart, before a hydration
     */
    static void faulted(ActorCell cell, ExitReason fault, Consumer<String> log) {
        Remedy remedy = Remedy.RETIRE;
        Supervisor supervisor = OPTIONS.supervisor(cell.options);
        if (supervisor != Supervisor.RETIRE && !cell.context.inFreshLife()) { // a fresh start that faults retires
            try {
                Remedy chosen = supervisor.onFault(cell.ref, fault);
                remedy = chosen == null ? Remedy.RETIRE : chosen;
            } catch (Throwable e) {
                RuntimeLog.hookFailed(cell.describe(), "Supervisor.onFault", e);
            }
        }
        switch (remedy) {
            case RETIRE -> {
                if (cell.halt(fault)) {
                    log.accept("halted");
                }
            }
            case RESTART -> restart(cell, fault, supervisor, log);
            case HYDRATE -> {
                log.accept("kept by its supervisor, which hydrates it (its ref stays live)");
                RuntimeLog.log(System.Logger.Level.INFO, cell.describe() + " hydrated by its supervisor: a fresh state starts next");
                cell.nextIncarnation();
                cell.context.hydrate(fault);
                cell.runtime.hydrations.increment();
            }
        }
    }

    private static void restart(ActorCell cell, ExitReason fault, Supervisor supervisor, Consumer<String> log) {
        if (!cell.halt(fault)) {
            return;
        }
        log.accept("halted, and its supervisor restarts it under a new ref");
        ActorRef fresh;
        try {
            fresh = cell.runtime.respawn(cell);
        } catch (IllegalStateException closed) {
            return; // the runtime closed meanwhile: nothing to restart into
        }
        cell.runtime.restarts.increment();
        try {
            supervisor.restarted(cell.ref, fresh);
        } catch (Throwable e) {
            RuntimeLog.hookFailed(cell.describe(), "Supervisor.restarted", e);
        }
    }
}
