package dev.lanehost.lanes;

import java.util.Objects;

/**
 * What one actor gets that differs from its runtime's defaults. Immutable; each {@code with} returns a copy.
 *
 * <pre>{@code
 * runtime.spawnOnLane("audio", "mixer", SpawnOptions.DEFAULT.withBudget(new TurnBudget(ofMillis(1), ofMillis(2), 1)), Mixer::new);
 * }</pre>
 */
public final class SpawnOptions {
    /** The runtime's defaults for everything. */
    public static final SpawnOptions DEFAULT = new SpawnOptions(null);

    private final TurnBudget budget;

    private SpawnOptions(TurnBudget budget) {
        this.budget = budget;
    }

    /** This actor's turn budget instead of the runtime's ({@link ActorRuntime.Builder#turnBudget}). */
    public SpawnOptions withBudget(TurnBudget budget) {
        return new SpawnOptions(Objects.requireNonNull(budget, "turn budget"));
    }

    /** The actor's own turn budget, or null for the runtime's. */
    TurnBudget budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "SpawnOptions[budget=" + (budget == null ? "runtime default" : budget) + "]";
    }
}
