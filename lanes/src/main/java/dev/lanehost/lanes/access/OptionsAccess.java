package dev.lanehost.lanes.access;

/**
 * {@code SpawnOptions}' settings, for spawning and supervision.
 *
 * @param <O> the options, {@code SpawnOptions}
 * @param <S> their supervisor, a {@code Supervisor}
 * @param <B> their turn budget, a {@code TurnBudget}
 */
public interface OptionsAccess<O, S, B> {
    S supervisor(O options);

    long mailboxCapacity(O options);

    B budget(O options);
}
