package dev.lanehost.lanes.access;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.LaneTeardown;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.ReusableTask;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Timer;
import dev.lanehost.lanes.TurnDisrupted;

/**
 * Where each API class leaves its access. A getter that finds none yet initializes that class, whose static
 * initializer sets it, so a caller never sees null.
 */
public final class Access {
    private static LaneAccess lanes;
    private static RefAccess refs;
    private static TimerAccess timers;
    private static SignalAccess signals;
    private static ParkAccess parks;
    private static TaskAccess tasks;
    private static OptionsAccess options;
    private static IdleAccess idle;
    private static TeardownAccess teardowns;
    private static DisruptionAccess disruptions;

    private Access() {
    }

    private static void initialize(Class<?> api) {
        try {
            Class.forName(api.getName(), true, api.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    public static void setLanes(LaneAccess access) {
        lanes = access;
    }

    public static LaneAccess lanes() {
        if (lanes == null) {
            initialize(ExecutionLane.class);
        }
        return lanes;
    }

    public static void setRefs(RefAccess access) {
        refs = access;
    }

    public static RefAccess refs() {
        if (refs == null) {
            initialize(ActorRef.class);
        }
        return refs;
    }

    public static void setTimers(TimerAccess access) {
        timers = access;
    }

    public static TimerAccess timers() {
        if (timers == null) {
            initialize(Timer.class);
        }
        return timers;
    }

    public static void setSignals(SignalAccess access) {
        signals = access;
    }

    public static SignalAccess signals() {
        if (signals == null) {
            initialize(Signal.class);
        }
        return signals;
    }

    public static void setParks(ParkAccess access) {
        parks = access;
    }

    public static ParkAccess parks() {
        if (parks == null) {
            initialize(Park.class);
        }
        return parks;
    }

    public static void setTasks(TaskAccess access) {
        tasks = access;
    }

    public static TaskAccess tasks() {
        if (tasks == null) {
            initialize(ReusableTask.class);
        }
        return tasks;
    }

    public static void setOptions(OptionsAccess access) {
        options = access;
    }

    public static OptionsAccess options() {
        if (options == null) {
            initialize(SpawnOptions.class);
        }
        return options;
    }

    public static void setIdle(IdleAccess access) {
        idle = access;
    }

    public static IdleAccess idle() {
        if (idle == null) {
            initialize(IdleStrategy.class);
        }
        return idle;
    }

    public static void setTeardowns(TeardownAccess access) {
        teardowns = access;
    }

    public static TeardownAccess teardowns() {
        if (teardowns == null) {
            initialize(LaneTeardown.class);
        }
        return teardowns;
    }

    public static void setDisruptions(DisruptionAccess access) {
        disruptions = access;
    }

    public static DisruptionAccess disruptions() {
        if (disruptions == null) {
            initialize(TurnDisrupted.class);
        }
        return disruptions;
    }
}
