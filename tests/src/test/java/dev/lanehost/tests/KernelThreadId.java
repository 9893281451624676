package dev.lanehost.tests;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/** The calling thread's kernel thread id (Linux {@code gettid}), the id the C hosts record for their pthreads. */
final class KernelThreadId {
    private static final MethodHandle GETTID = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().findOrThrow("gettid"), FunctionDescriptor.of(JAVA_INT));

    private KernelThreadId() {
    }

    static long current() {
        try {
            return (int) GETTID.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException("gettid failed", e);
        }
    }
}
