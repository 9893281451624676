package dev.lanehost.tests.stress;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import java.lang.foreign.Arena;

/** Rings for jcstress states: tiny, GC-managed (jcstress makes many states), optionally pre-advanced. */
final class StressRings {
    static final int CAPACITY = 64;

    private StressRings() {
    }

    /**
     * A ring whose positions have both advanced to {@code start}, so the next transfer begins
     * {@code start % CAPACITY} bytes into the data and may straddle its end.
     */
    static SpscByteRing advancedTo(int start) {
        SpscByteRing ring = SpscByteRing.initialize(
                Arena.ofAuto().allocate(SpscByteRingDescriptor.memoryLength(CAPACITY), 128), CAPACITY);
        byte[] filler = new byte[start];
        java.util.Arrays.fill(filler, (byte) 0x5A);
        int moved = 0;
        byte[] sink = new byte[CAPACITY];
        while (moved < start) {
            int n = ring.write(filler, moved, Math.min(CAPACITY, start - moved));
            ring.read(sink, 0, n);
            moved += n;
        }
        return ring;
    }
}
