package dev.lanehost.ring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;

/**
 * Run in a child JVM without native access (see {@link WithoutNativeAccessTest}): allocates a ring, writes long
 * pieces from a {@code byte[]} and from a segment across the wrap, reads them back, and prints what it found.
 */
public final class WithoutNativeAccessProgram {
    private WithoutNativeAccessProgram() {
    }

    public static void main(String[] args) {
        int capacity = 1 << 14;
        Random random = new Random(13);
        try (SpscByteRing ring = SpscByteRing.allocate(capacity); Arena arena = Arena.ofConfined()) {
            System.out.println("copiesLongPiecesNatively=" + ring.copiesLongPiecesNatively());
            for (int round = 0; round < 40; round++) {
                int length = 2048 + random.nextInt(6000);
                byte[] in = new byte[length];
                random.nextBytes(in);
                long written = round % 2 == 0
                        ? ring.write(in, 0, length)
                        : ring.write(arena.allocate(length).copyFrom(MemorySegment.ofArray(in)), 0, length);
                byte[] out = new byte[length];
                int read = ring.read(out, 0, length);
                if (written != length || read != length || !Arrays.equals(in, out)) {
                    System.out.println("round " + round + ": wrote " + written + ", read " + read + " of " + length
                            + (Arrays.equals(in, out) ? "" : ", bytes differ"));
                    System.exit(1);
                }
            }
        }
        System.out.println("40 long pieces moved intact");
    }
}
