package dev.lanehost.lanes.access;

/**
 * {@code LaneTeardown}'s reason, for the lane's close.
 *
 * @param <T> the teardown, {@code LaneTeardown}
 */
public interface TeardownAccess<T> {
    String reason(T teardown);
}
