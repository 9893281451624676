package dev.lanehost.lanes.access;

/**
 * Where each API class leaves its access. A getter that finds none yet initializes that class, whose static
 * initializer sets it, so a caller never sees null. The classes are named, not imported: this package names no
 * type of the API, so the API's classes and the runtime both point down at it. A getter takes its type arguments
 * from the field its caller keeps ({@code static final TimerAccess<Timer, ...> TIMERS = Access.timers();}); the
 * cast is unchecked, and costs nothing at run time.
 */
public final class Access {
    private static final String REF = "dev.lanehost.lanes.ActorRef";
    private static final String TIMER = "dev.lanehost.lanes.Timer";
    private static final String SIGNAL = "dev.lanehost.lanes.Signal";
    private static final String PARK = "dev.lanehost.lanes.Park";
    private static final String TASK = "dev.lanehost.lanes.ReusableTask";
    private static final String OPTIONS = "dev.lanehost.lanes.SpawnOptions";
    private static final String IDLE = "dev.lanehost.lanes.IdleStrategy";
    private static final String TEARDOWN = "dev.lanehost.lanes.LaneTeardown";
    private static final String DISRUPTION = "dev.lanehost.lanes.TurnDisrupted";

    private static RefAccess<?, ?> refs;
    private static TimerAccess<?, ?> timers;
    private static SignalAccess<?, ?> signals;
    private static ParkAccess<?, ?> parks;
    private static TaskAccess<?, ?> tasks;
    private static OptionsAccess<?, ?, ?> options;
    private static IdleAccess<?> idle;
    private static TeardownAccess<?> teardowns;
    private static DisruptionAccess<?> disruptions;

    private Access() {
    }

    /** Initializes the API class {@code name}, whose static initializer leaves its access here. */
    private static void initialize(String name) {
        try {
            Class.forName(name, true, Access.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    public static void setRefs(RefAccess<?, ?> access) {
        refs = access;
    }

    @SuppressWarnings("unchecked")
    public static <R, A> RefAccess<R, A> refs() {
        if (refs == null) {
            initialize(REF);
        }
        return (RefAccess<R, A>) refs;
    }

    public static void setTimers(TimerAccess<?, ?> access) {
        timers = access;
    }

    @SuppressWarnings("unchecked")
    public static <T, A> TimerAccess<T, A> timers() {
        if (timers == null) {
            initialize(TIMER);
        }
        return (TimerAccess<T, A>) timers;
    }

    public static void setSignals(SignalAccess<?, ?> access) {
        signals = access;
    }

    @SuppressWarnings("unchecked")
    public static <S, A> SignalAccess<S, A> signals() {
        if (signals == null) {
            initialize(SIGNAL);
        }
        return (SignalAccess<S, A>) signals;
    }

    public static void setParks(ParkAccess<?, ?> access) {
        parks = access;
    }

    @SuppressWarnings("unchecked")
    public static <P, A> ParkAccess<P, A> parks() {
        if (parks == null) {
            initialize(PARK);
        }
        return (ParkAccess<P, A>) parks;
    }

    public static void setTasks(TaskAccess<?, ?> access) {
        tasks = access;
    }

    @SuppressWarnings("unchecked")
    public static <T, L> TaskAccess<T, L> tasks() {
        if (tasks == null) {
            initialize(TASK);
        }
        return (TaskAccess<T, L>) tasks;
    }

    public static void setOptions(OptionsAccess<?, ?, ?> access) {
        options = access;
    }

    @SuppressWarnings("unchecked")
    public static <O, S, B> OptionsAccess<O, S, B> options() {
        if (options == null) {
            initialize(OPTIONS);
        }
        return (OptionsAccess<O, S, B>) options;
    }

    public static void setIdle(IdleAccess<?> access) {
        idle = access;
    }

    @SuppressWarnings("unchecked")
    public static <S> IdleAccess<S> idle() {
        if (idle == null) {
            initialize(IDLE);
        }
        return (IdleAccess<S>) idle;
    }

    public static void setTeardowns(TeardownAccess<?> access) {
        teardowns = access;
    }

    @SuppressWarnings("unchecked")
    public static <T> TeardownAccess<T> teardowns() {
        if (teardowns == null) {
            initialize(TEARDOWN);
        }
        return (TeardownAccess<T>) teardowns;
    }

    public static void setDisruptions(DisruptionAccess<?> access) {
        disruptions = access;
    }

    @SuppressWarnings("unchecked")
    public static <D> DisruptionAccess<D> disruptions() {
        if (disruptions == null) {
            initialize(DISRUPTION);
        }
        return (DisruptionAccess<D>) disruptions;
    }
}
