package dev.lanehost.lanes;

/** How many times a signal may fire. */
public enum SignalMode {
    /** Fires once, then detaches (its release hook runs). */
    ONE_SHOT,
    /** Fires any number of times until cancelled or its owner halts. */
    MULTISHOT
}
