package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The write and read paths allocate nothing once compiled. Each round runs many transfers and asks the
 * JVM how many bytes this thread allocated; the test passes on the first round that allocated none
 * (warm-up is whatever it takes the JIT, up to a generous number of rounds) and fails if none does.
 */
class RingAllocationTest {
    private static final int ROUNDS = 60;
    private static final int TRANSFERS_PER_ROUND = 20_000;

    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void byteArrayPathsAllocateNothing() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            byte[] in = new byte[700];
            byte[] out = new byte[700];
            assertAllocationFree("byte[] write/read", () -> {
                ring.write(in, 0, in.length);
                ring.read(out, 0, out.length);
            });
        }
    }

    @Test
    void segmentPathsAllocateNothing() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096); Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(700);
            MemorySegment out = arena.allocate(700);
            assertAllocationFree("MemorySegment write/read", () -> {
                ring.write(in, 0, 700);
                ring.read(out, 0, 700);
            });
        }
    }

    @Test
    void heapByteBufferPathsAllocateNothing() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            ByteBuffer in = ByteBuffer.allocate(700);
            ByteBuffer out = ByteBuffer.allocate(700);
            assertAllocationFree("heap ByteBuffer write/read", () -> {
                in.clear();
                out.clear();
                ring.write(in);
                ring.read(out);
            });
        }
    }

    @Test
    void directByteBufferPathsAllocateNothing() {
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            ByteBuffer in = ByteBuffer.allocateDirect(700);
            ByteBuffer out = ByteBuffer.allocateDirect(700);
            assertAllocationFree("direct ByteBuffer write/read", () -> {
                in.clear();
                out.clear();
                ring.write(in);
                ring.read(out);
            });
        }
    }

    @Test
    void writeThatWakesAConsumerAllocatesNothing() {
        assumeTrue(Futex.isSupported(), "waking needs Linux futexes on x86-64, aarch64 or riscv64");
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            byte[] in = new byte[700];
            byte[] out = new byte[700];
            assertAllocationFree("write with a consumer announced, and awaitReadable", () -> {
                // A consumer's announce, as the waiting protocol makes it: the write makes the wake system call.
                ring.memory().set(ValueLayout.JAVA_INT, SpscByteRingDescriptor.WAKE_WORD_OFFSET, SpscByteRingDescriptor.WAKE_WAITER);
                ring.write(in, 0, in.length);
                try {
                    ring.awaitReadable(in.length, Duration.ZERO);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                ring.read(out, 0, out.length);
            });
            assertEquals(true, ring.wakeCount() >= TRANSFERS_PER_ROUND, ring.toString());
        }
    }

    @Test
    void theMeasurementSeesAllocation() {
        // Guards the guard: a loop that does allocate must be reported as allocating.
        long allocated = allocatedBy(() -> {
            byte[] garbage = new byte[64];
            garbage[0] = 1;
            sink = garbage;
        });
        assertEquals(true, allocated >= 64L * TRANSFERS_PER_ROUND, "measured " + allocated);
    }

    private static volatile Object sink;

    private void assertAllocationFree(String what, Runnable transfer) {
        long allocated = -1;
        for (int round = 0; round < ROUNDS; round++) {
            allocated = allocatedBy(transfer);
            if (allocated == 0) {
                return;
            }
        }
        fail(what + " still allocated " + allocated + " bytes per " + TRANSFERS_PER_ROUND + " transfers after "
                + ROUNDS + " rounds");
    }

    private long allocatedBy(Runnable transfer) {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < TRANSFERS_PER_ROUND; i++) {
            transfer.run();
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
