package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.time.Duration;

/**
 * Run in a child JVM (see {@link MembarrierRefusedTest}): refuses membarrier(2) to the whole process with a seccomp
 * filter, as a container's filter may, then tries to wait on an empty ring and polls a stream through it, and prints
 * what it found. A filter cannot be lifted, so the tests' own JVM must never install one.
 */
public final class MembarrierRefusedProgram {
    private static final long SYS_PRCTL = SystemCall.number(157, 167);
    private static final long SYS_SECCOMP = SystemCall.number(317, 277);
    private static final long SYS_MEMBARRIER = SystemCall.number(324, 283);
    private static final long PR_SET_NO_NEW_PRIVS = 38;
    private static final long SECCOMP_SET_MODE_FILTER = 1;
    /** Every thread of the JVM, not only this one: whichever thread waits must be refused. */
    private static final long SECCOMP_FILTER_FLAG_TSYNC = 1;
    private static final int STREAM_BYTES = 4 << 20;

    private MembarrierRefusedProgram() {
    }

    public static void main(String[] args) throws Throwable {
        refuseMembarrier();
        try (SpscByteRing ring = SpscByteRing.allocate(4096)) {
            try {
                ring.awaitReadable(1, Duration.ofSeconds(30));
                System.out.println("awaitReadable returned on an empty ring");
            } catch (UnsupportedOperationException e) {
                System.out.println("awaitReadable: UnsupportedOperationException: " + e.getMessage());
            }
            System.out.println("hasWaiter=" + ring.hasWaiter());
            System.out.println("copiesLongPiecesNatively=" + ring.copiesLongPiecesNatively());
            System.out.println(pollStream(ring));
            System.out.println("wakeCount=" + ring.wakeCount());
        }
    }

    /** The producer on another thread; this one, the ring's consumer, only polls. */
    private static String pollStream(SpscByteRing ring) throws InterruptedException {
        Thread producer = Thread.ofPlatform().start(() -> {
            byte[] chunk = new byte[700]; // not a divisor of the capacity: pieces wrap at every offset
            int produced = 0;
            while (produced < STREAM_BYTES) {
                int length = Math.min(chunk.length, STREAM_BYTES - produced);
                for (int i = 0; i < length; i++) {
                    chunk[i] = pattern(produced + i);
                }
                int wrote = ring.write(chunk, 0, length);
                produced += wrote;
                if (wrote == 0) {
                    Thread.onSpinWait();
                }
            }
        });
        byte[] buffer = new byte[1024];
        int consumed = 0;
        long firstMismatch = -1;
        while (consumed < STREAM_BYTES) {
            int got = ring.read(buffer, 0, buffer.length);
            for (int i = 0; i < got && firstMismatch < 0; i++) {
                if (buffer[i] != pattern(consumed + i)) {
                    firstMismatch = consumed + i;
                }
            }
            consumed += got;
            if (got == 0) {
                Thread.onSpinWait();
            }
        }
        producer.join();
        return firstMismatch < 0 ? "polled " + consumed + " bytes intact" : "byte " + firstMismatch + " differs";
    }

    private static byte pattern(int position) {
        return (byte) (position ^ (position >> 8) ^ (position >> 16));
    }

    /** membarrier answers EPERM; every other call, and any call of another architecture's numbering, is allowed. */
    private static void refuseMembarrier() throws Throwable {
        int auditArch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> 0xC000003E;
            case "aarch64" -> 0xC00000B7;
            case "riscv64" -> 0xC00000F3;
            default -> throw new IllegalStateException("no seccomp architecture for " + System.getProperty("os.arch"));
        };
        int[][] filter = {
            // {code, jt, jf, k}: BPF_LD|BPF_W|BPF_ABS 0x20, BPF_JMP|BPF_JEQ|BPF_K 0x15, BPF_RET|BPF_K 0x06
            {0x20, 0, 0, 4},                       // load seccomp_data.arch
            {0x15, 0, 3, auditArch},               // another architecture: allow
            {0x20, 0, 0, 0},                       // load seccomp_data.nr
            {0x15, 0, 1, (int) SYS_MEMBARRIER},
            {0x06, 0, 0, 0x00050000 | 1},          // SECCOMP_RET_ERRNO | EPERM
            {0x06, 0, 0, 0x7FFF0000},              // SECCOMP_RET_ALLOW
        };
        MethodHandle syscall = SystemCall.handle(JAVA_LONG, JAVA_LONG);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment instructions = arena.allocate(8L * filter.length, 8);
            for (int i = 0; i < filter.length; i++) {
                instructions.set(JAVA_SHORT, 8L * i, (short) filter[i][0]);
                instructions.set(JAVA_BYTE, 8L * i + 2, (byte) filter[i][1]);
                instructions.set(JAVA_BYTE, 8L * i + 3, (byte) filter[i][2]);
                instructions.set(JAVA_INT, 8L * i + 4, filter[i][3]);
            }
            MemorySegment program = arena.allocate(16, 8); // struct sock_fprog: unsigned short len, then the pointer
            program.set(JAVA_SHORT, 0, (short) filter.length);
            program.set(JAVA_LONG, 8, instructions.address());
            long noNewPrivs = (long) syscall.invokeExact(SYS_PRCTL, PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L);
            long installed = (long) syscall.invokeExact(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
                    program.address(), 0L, 0L);
            long membarrier = (long) syscall.invokeExact(SYS_MEMBARRIER, 0L, 0L, 0L, 0L, 0L); // MEMBARRIER_CMD_QUERY
            System.out.println("filter: no_new_privs " + noNewPrivs + ", seccomp " + installed + ", membarrier query "
                    + membarrier);
            if (noNewPrivs != 0 || installed != 0 || membarrier != -1) {
                System.exit(2);
            }
        }
    }
}
