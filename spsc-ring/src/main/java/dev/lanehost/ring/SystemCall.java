package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.Locale;

/** libc's {@code syscall(2)} through FFM, for the two system calls the ring makes itself (futex, membarrier). */
final class SystemCall {
    private SystemCall() {
    }

    /**
     * A system call's number here: {@code x8664} on x86-64, {@code generic} on aarch64 and riscv64 (the generic
     * table); -1 on any other architecture or system.
     */
    static long number(long x8664, long generic) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return -1;
        }
        return switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> x8664;
            case "aarch64", "riscv64" -> generic;
            default -> -1;
        };
    }

    /**
     * {@code long syscall(long number, long a, long b, long c, ...more)}: the number and three arguments passed as
     * longs (the kernel reads registers), then {@code more}.
     */
    static MethodHandle handle(MemoryLayout... more) {
        MemoryLayout[] arguments = new MemoryLayout[4 + more.length];
        Arrays.fill(arguments, 0, 4, JAVA_LONG);
        System.arraycopy(more, 0, arguments, 4, more.length);
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().findOrThrow("syscall"),
                FunctionDescriptor.of(JAVA_LONG, arguments), Linker.Option.firstVariadicArg(1));
    }
}
