package dev.lanehost.lanes;

import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.OptionsAccess;
import java.util.Objects;

/**
 * What one actor gets that differs from its runtime's defaults. Immutable; each {@code with} returns a copy.
 *
 * <pre>{@code
 * runtime.spawnOnLane("audio", "mixer", SpawnOptions.DEFAULT.withBudget(new TurnBudget(ofMillis(1), ofMillis(2), 1)), Mixer::new);
 * }</pre>
 */
public final class SpawnOptions {
    static {
        Access.setOptions(new OptionsAccess<SpawnOptions, Supervisor, TurnBudget>() {
            @Override
            public Supervisor supervisor(SpawnOptions options) {
                return options.supervisor();
            }

            @Override
            public long mailboxCapacity(SpawnOptions options) {
                return options.mailboxCapacity();
            }

            @Override
            public TurnBudget budget(SpawnOptions options) {
                return options.budget();
            }
        });
    }

    /** The runtime's defaults for everything. */
    public static final SpawnOptions DEFAULT = new SpawnOptions(null, 0, Supervisor.RETIRE);

    private final TurnBudget budget;
    /** 0: the runtime's. */
    private final long mailboxCapacity;
    private final Supervisor supervisor;

    private SpawnOptions(TurnBudget budget, long mailboxCapacity, Supervisor supervisor) {
        this.budget = budget;
        this.mailboxCapacity = mailboxCapacity;
        this.supervisor = supervisor;
    }

    /** This actor's turn budget instead of the runtime's ({@link RuntimeBuilder#turnBudget}). */
    public SpawnOptions withBudget(TurnBudget budget) {
        return new SpawnOptions(Objects.requireNonNull(budget, "turn budget"), mailboxCapacity, supervisor);
    }

    /**
     * How many letters this actor's mailbox holds before it refuses messages and tasks ({@link Delivery#FULL}),
     * instead of the runtime's ({@link RuntimeBuilder#mailboxCapacity}).
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    public SpawnOptions withMailboxCapacity(long capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a mailbox capacity must be at least 1; got " + capacity);
        }
        return new SpawnOptions(budget, capacity, supervisor);
    }

    /** Who decides what happens when one of this actor's turns faults (default {@link Supervisor#RETIRE}). */
    public SpawnOptions withSupervisor(Supervisor supervisor) {
        return new SpawnOptions(budget, mailboxCapacity, Objects.requireNonNull(supervisor, "supervisor"));
    }

    Supervisor supervisor() {
        return supervisor;
    }

    /** The actor's own mailbox capacity, or 0 for the runtime's. */
    long mailboxCapacity() {
        return mailboxCapacity;
    }

    /** The actor's own turn budget, or null for the runtime's. */
    TurnBudget budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "SpawnOptions[budget=" + (budget == null ? "runtime default" : budget)
                + ", mailboxCapacity=" + (mailboxCapacity == 0 ? "runtime default" : mailboxCapacity)
                + ", supervisor=" + (supervisor == Supervisor.RETIRE ? "retire" : supervisor.getClass().getName()) + "]";
    }
}
