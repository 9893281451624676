package dev.lanehost.lanes.access;

import dev.lanehost.lanes.LaneTeardown;

/** {@link LaneTeardown}'s reason, for the lane's close. */
public interface TeardownAccess {
    String reason(LaneTeardown teardown);
}
