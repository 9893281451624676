package dev.lanehost.ring;

import java.lang.management.ManagementFactory;

/**
 * Run in a child JVM by {@link RawCopyTest}, with escape analysis off: long writes and reads of whole arrays through
 * {@code memcpy}, then the bytes the measured ones allocated on this thread.
 */
public final class RawCopyAllocationProgram {
    private RawCopyAllocationProgram() {
    }

    public static void main(String[] args) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] in = new byte[4096];
        byte[] out = new byte[4096];
        try (SpscByteRing ring = SpscByteRing.allocate(1 << 16)) {
            System.out.println("copiesLongPiecesNatively=" + ring.copiesLongPiecesNatively());
            moveMany(ring, in, out, 20_000);
            long before = threads.getCurrentThreadAllocatedBytes();
            moveMany(ring, in, out, 10_000);
            System.out.println("allocated=" + (threads.getCurrentThreadAllocatedBytes() - before));
        }
    }

    private static void moveMany(SpscByteRing ring, byte[] in, byte[] out, int times) {
        for (int i = 0; i < times; i++) {
            if (ring.write(in, 0, in.length) != in.length || ring.read(out, 0, out.length) != out.length) {
                throw new IllegalStateException("a transfer fell short");
            }
        }
    }
}
