package dev.lanehost.lanes.access;

/**
 * {@code ReusableTask}'s letter, for the offer that queues it.
 *
 * @param <T> the task, {@code ReusableTask}
 * @param <L> the letter it holds, a {@code Letter.Reusable}
 */
public interface TaskAccess<T, L> {
    L letter(T task);
}
