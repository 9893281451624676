package dev.lanehost.nativeabi;

import dev.lanehost.affinity.PriorityPolicy;
import dev.lanehost.affinity.PriorityResult;
import dev.lanehost.affinity.SchedClass;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRuntime;
import java.util.Map;

/**
 * The thread priority of the guests' shared runtime, from the system property {@value #PROPERTY} (a bundle sets it
 * with {@code jvm_option=-Dlanehost.guest.priority=fifo:1} in its lanehost.conf; the first instance in the process
 * decides, as for every JVM option): {@code fifo:<priority>[:<fallback nice>]}, {@code rr:...}, {@code nice:<n>}, or
 * {@code none} (the default). An audio plugin asks for the lowest real-time priorities, below any real-time audio
 * thread of its host, so that ordinary threads cannot hold its actors and their timers off the CPU for longer than
 * its lead; where the system refuses, the runtime's threads keep their priority and the log says so once.
 */
final class GuestPriority {
    static final String PROPERTY = "lanehost.guest.priority";
    private static final System.Logger LOG = System.getLogger("dev.lanehost.nativeabi");

    private GuestPriority() {
    }

    /** The policy the property names. @throws EmbedFailure naming the property and the forms it takes */
    static PriorityPolicy fromProperty() throws EmbedFailure {
        String value = System.getProperty(PROPERTY, "none").strip();
        String[] parts = value.split(":");
        try {
            return switch (parts[0]) {
                case "none" -> PriorityPolicy.none();
                case "nice" -> PriorityPolicy.nice(Integer.parseInt(parts[1]));
                case "fifo", "rr" -> PriorityPolicy.realtime(parts[0].equals("fifo") ? SchedClass.FIFO : SchedClass.RR,
                        Integer.parseInt(parts[1]), parts.length > 2 ? Integer.parseInt(parts[2]) : 0);
                default -> throw new IllegalArgumentException("unknown kind " + parts[0]);
            };
        } catch (RuntimeException malformed) {
            throw new EmbedFailure(CallStatus.INVALID_ARGUMENT, "-D" + PROPERTY + "=" + value + " is not a priority ("
                    + malformed.getMessage() + "): use fifo:<1-99>[:<fallback nice>], rr:..., nice:<-20-19> or none");
        }
    }

    /** Says once, at WARNING, which of the new runtime's threads did not get what the policy asked. */
    static void logRefusals(ActorRuntime runtime) {
        StringBuilder refused = new StringBuilder();
        for (Map.Entry<String, PriorityResult> result : runtime.metrics().priorityResults().entrySet()) {
            if (result.getValue().outcome() == PriorityResult.Outcome.FELL_BACK) {
                refused.append(refused.isEmpty() ? "" : "; ").append(result.getKey()).append(": ")
                        .append(result.getValue().reason());
            }
        }
        if (!refused.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "lanehost guest runtime: the priority " + System.getProperty(PROPERTY)
                    + " was refused, the threads keep their own (" + refused + ")");
        }
    }
}
