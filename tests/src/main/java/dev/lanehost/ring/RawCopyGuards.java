package dev.lanehost.ring;

import java.lang.foreign.MemorySegment;

/** The raw-copy tests' guards: a fork that cannot make raw copies fails here instead of racing on a null guard. */
final class RawCopyGuards {
    private RawCopyGuards() {
    }

    static RawCopy forOwnMemory(MemorySegment data) {
        RawCopy guard = RawCopy.forOwnMemory(data);
        if (guard == null) {
            throw new IllegalStateException("this JVM makes no raw copies: it needs --enable-native-access for lanehost"
                    + " and Linux membarrier(2)");
        }
        return guard;
    }
}
