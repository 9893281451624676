package dev.lanehost.lanes.access;

import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Supervisor;
import dev.lanehost.lanes.TurnBudget;

/** {@link SpawnOptions}' settings, for spawning and supervision. */
public interface OptionsAccess {
    Supervisor supervisor(SpawnOptions options);

    long mailboxCapacity(SpawnOptions options);

    TurnBudget budget(SpawnOptions options);
}
