package dev.lanehost.lanes.observe;

import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Placement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Actors torn down so far, by the kind of their {@link ExitReason}: one adder per kind, added to by whichever
 * thread runs a teardown, summed by {@link dev.lanehost.lanes.RuntimeMetrics#halts(Class)} and the MBean.
 */
public final class HaltCounts {
    /** The kinds in a fixed order: the index of each is its adder's. */
    private static final String[] KINDS = {"Normal", "Failed", "Killed", "Budget", "Reaped", "Shutdown", "Linked"};

    private final LongAdder[] counts = new LongAdder[KINDS.length];

    public HaltCounts() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** The teardown's one hook: count the halt and record its event. */
    public void tornDown(long id, String name, Placement placement, ExitReason reason) {
        counts[index(reason.getClass())].increment();
        if (RuntimeEvents.recordsHalts()) {
            RuntimeEvents.actorHalted(id, name, placement, kind(reason), detail(reason));
        }
    }

    public long count(Class<? extends ExitReason> kind) {
        return counts[index(kind)].sum();
    }

    /** Every kind, in declaration order, with its count (zero included, so a poller sees a stable key set). */
    public Map<String, Long> byKind() {
        Map<String, Long> byKind = new LinkedHashMap<>();
        for (int i = 0; i < KINDS.length; i++) {
            byKind.put(KINDS[i], counts[i].sum());
        }
        return byKind;
    }

    /** A reason's kind as the counters, the events and the MBean name it: its record's simple name. */
    static String kind(ExitReason reason) {
        return KINDS[index(reason.getClass())];
    }

    /** What a log reader may see of a reason: kinds and class names, never a user object's text. */
    private static String detail(ExitReason reason) {
        return switch (reason) {
            case ExitReason.Failed failed -> failed.cause() == null ? "" : failed.cause().getClass().getName();
            case ExitReason.Linked linked -> "actor " + linked.peer().id() + " '" + linked.peer().name() + "': "
                    + kind(linked.reason());
            default -> "";
        };
    }

    private static int index(Class<? extends ExitReason> kind) {
        if (kind == ExitReason.Normal.class) {
            return 0;
        } else if (kind == ExitReason.Failed.class) {
            return 1;
        } else if (kind == ExitReason.Killed.class) {
            return 2;
        } else if (kind == ExitReason.Budget.class) {
            return 3;
        } else if (kind == ExitReason.Reaped.class) {
            return 4;
        } else if (kind == ExitReason.Shutdown.class) {
            return 5;
        } else if (kind == ExitReason.Linked.class) {
            return 6;
        }
        throw new IllegalArgumentException("no exit reason of kind " + kind.getName()
                + " (kinds: Normal, Failed, Killed, Budget, Reaped, Shutdown, Linked)");
    }
}
